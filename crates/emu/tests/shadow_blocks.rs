//! The determinism shadow on whole launches: blocks that keep to their own words run in parallel
//! (no block is told it runs in block order), blocks that share a written word make the launch run
//! again in block order, whatever the block shape's access pattern (rows split across warps,
//! strided lanes).

use std::sync::{Arc, Mutex};

use warpscope_emu::{Arg, Launch, Limits, Sink, run};

/// `c[i] = a[i] + b[i]` over an `nx`-wide matrix, one element per thread of a 2D grid of 2D
/// blocks; with `racy`, every thread also adds its value into `c[0]`'s neighbour row's first word
/// of the block to the right (a word another block writes).
const KERNEL: &str = ".version 9.0\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 nx, .param .u32 racy)\n{\n\
 .reg .pred %p<2>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<10>;\n .reg .f32 %f<4>;\n\
 ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u64 %rd3, [c];\n\
 ld.param.u32 %r1, [nx];\n ld.param.u32 %r11, [racy];\n\
 mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n mad.lo.s32 %r5, %r3, %r4, %r2;\n\
 mov.u32 %r6, %tid.y;\n mov.u32 %r7, %ctaid.y;\n mov.u32 %r8, %ntid.y;\n mad.lo.s32 %r9, %r7, %r8, %r6;\n\
 mad.lo.s32 %r10, %r9, %r1, %r5;\n mul.wide.u32 %rd4, %r10, 4;\n\
 add.s64 %rd5, %rd1, %rd4;\n add.s64 %rd6, %rd2, %rd4;\n add.s64 %rd7, %rd3, %rd4;\n\
 ld.global.f32 %f1, [%rd5];\n ld.global.f32 %f2, [%rd6];\n add.f32 %f3, %f1, %f2;\n st.global.f32 [%rd7], %f3;\n\
 setp.eq.u32 %p1, %r11, 0;\n @%p1 bra $L_done;\n\
 add.s32 %r12, %r5, %r4;\n rem.u32 %r12, %r12, %r1;\n mad.lo.s32 %r13, %r9, %r1, %r12;\n\
 mul.wide.u32 %rd8, %r13, 4;\n add.s64 %rd9, %rd3, %rd8;\n ld.global.f32 %f1, [%rd9];\n\
$L_done:\n ret;\n}\n";

/// Notes whether its block was told it runs in block order.
struct Told(Arc<Mutex<Vec<bool>>>);

impl Sink for Told {
    fn block_order(&mut self, in_order: bool) {
        self.0.lock().unwrap().push(in_order);
    }
}

fn sum(block: [u32; 3], racy: bool) -> (Vec<bool>, Vec<u8>) {
    let nx = 64u32;
    let a: Vec<u8> = (0..nx * nx).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let b: Vec<u8> = (0..nx * nx)
        .flat_map(|i| (2.0 * i as f32).to_le_bytes())
        .collect();
    let launch = Launch::new(
        [nx / block[0], nx / block[1], 1],
        block,
        vec![
            Arg::Buffer(a),
            Arg::Buffer(b),
            Arg::Buffer(vec![0; 4 * (nx * nx) as usize]),
            Arg::U32(nx),
            Arg::U32(u32::from(racy)),
        ],
    );
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let told = Arc::new(Mutex::new(Vec::new()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let res = pool.install(|| {
        run(&prog, "k", &launch, &Limits::default(), |_| {
            Told(Arc::clone(&told))
        })
        .unwrap()
    });
    let ordered = std::mem::take(&mut *told.lock().unwrap());
    (ordered, res.buffer(2).unwrap().to_vec())
}

#[test]
fn blocks_that_keep_to_their_words_run_in_parallel_whatever_the_block_shape() {
    for block in [[32, 32, 1], [32, 16, 1], [16, 16, 1], [8, 4, 1], [1, 32, 1]] {
        let (ordered, c) = sum(block, false);
        assert!(!ordered.is_empty());
        assert!(
            ordered.iter().all(|&o| !o),
            "block {block:?}: a block ran in block order"
        );
        for (i, w) in c.chunks(4).enumerate() {
            assert_eq!(
                f32::from_le_bytes(w.try_into().unwrap()),
                3.0 * i as f32,
                "block {block:?}"
            );
        }
    }
}

#[test]
fn a_read_of_a_word_another_block_writes_runs_the_launch_in_block_order() {
    for block in [[32, 32, 1], [16, 16, 1], [8, 4, 1]] {
        let (ordered, c) = sum(block, true);
        // the parallel attempt's blocks, then the rerun's, all told they run in block order
        let blocks = (64 / block[0] * 64 / block[1]) as usize;
        assert!(ordered.len() >= blocks);
        assert!(
            ordered[ordered.len() - blocks..].iter().all(|&o| o),
            "block {block:?}"
        );
        for (i, w) in c.chunks(4).enumerate() {
            assert_eq!(
                f32::from_le_bytes(w.try_into().unwrap()),
                3.0 * i as f32,
                "block {block:?}"
            );
        }
    }
}
