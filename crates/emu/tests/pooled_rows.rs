//! Register files kept from block to block (`exec::fixed_init`): a file set up for a launch's warp
//! index keeps its constant and thread-index rows for the next block's warp of that index, the
//! block-dependent rows (`%ctaid`) set again. Results against the reference path
//! (`Limits::reference_paths`, which sets every row for every warp) and against values derived by
//! hand, over launches of different kernels and block shapes one after another (the pooled files
//! of one launch met by the next).

use warpscope_emu::{Arg, Launch, Limits, run};

/// Each thread writes 6 words at its linear index in the grid: `%tid.x`, `%tid.y`, `%laneid`,
/// `%ctaid.x`, `%ntid.x` and `%tid.x + 77`.
const KERNEL: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry ids(.param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %tid.y;
    mov.u32 %r3, %laneid;
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mov.u32 %r6, %ntid.y;
    mad.lo.u32 %r7, %r2, %r5, %r1;
    mul.lo.u32 %r8, %r5, %r6;
    mad.lo.u32 %r9, %r4, %r8, %r7;
    add.u32 %r10, %r1, 77;
    mul.wide.u32 %rd2, %r9, 24;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    st.global.u32 [%rd3+4], %r2;
    st.global.u32 [%rd3+8], %r3;
    st.global.u32 [%rd3+12], %r4;
    st.global.u32 [%rd3+16], %r5;
    st.global.u32 [%rd3+20], %r10;
    ret;
}

.visible .entry other(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.u32 %r4, %r2, %r3, %r1;
    add.u32 %r5, %r4, 1000;
    mul.wide.u32 %rd2, %r4, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
"#;

/// `grid` blocks of `block` threads, the output buffer sized for `words` words a thread.
fn launch(grid: u32, block: [u32; 2], words: usize) -> Launch {
    let n = grid as usize * (block[0] * block[1]) as usize;
    Launch::new(
        [grid, 1, 1],
        [block[0], block[1], 1],
        vec![Arg::Buffer(vec![0; 4 * words * n])],
    )
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn kept_rows_equal_the_reference_and_the_thread_indices() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let reference = Limits {
        reference_paths: true,
        ..Limits::default()
    };
    // block shapes with a partial last warp, one of several rows, and one warp; `other` between
    // them, so that a later launch meets files this one and others set up
    for (kernel, grid, block, per) in [
        ("ids", 24u32, [40u32, 2u32], 6usize),
        ("other", 16, [64, 1], 1),
        ("ids", 24, [40, 2], 6),
        ("ids", 20, [32, 3], 6),
        ("other", 9, [96, 1], 1),
        ("ids", 30, [32, 1], 6),
    ] {
        let l = launch(grid, block, per);
        let fast = run(&prog, kernel, &l, &Limits::default(), |_| ()).unwrap();
        let slow = run(&prog, kernel, &l, &reference, |_| ()).unwrap();
        assert!(fast.faults.is_empty(), "{:?}", fast.faults);
        assert_eq!(fast.buffers, slow.buffers, "{kernel} {block:?}: results");
        assert_eq!(fast.counters, slow.counters, "{kernel} {block:?}: counters");
        let out = words(fast.buffers[0].as_ref().expect("the output buffer"));
        let nthreads = block[0] * block[1];
        for t in 0..grid * nthreads {
            let (cta, tl) = (t / nthreads, t % nthreads);
            let got = &out[t as usize * per..(t as usize + 1) * per];
            if kernel == "other" {
                assert_eq!(got, [t + 1000], "{kernel} thread {t}");
            } else {
                let (x, y) = (tl % block[0], tl / block[0]);
                assert_eq!(
                    got,
                    [x, y, tl % 32, cta, block[0], x + 77],
                    "{kernel} {block:?} thread {t}"
                );
            }
        }
    }
}
