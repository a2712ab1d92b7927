//! Launches whose blocks a static proof shows never touch a word another block writes run without
//! the determinism shadow; every other launch keeps it. Either way the results must be the bytes
//! of block order at any thread count: kernels the proof accepts (one element per thread, a
//! row-major 2-D index, a tile written by four stores) and kernels that look affine but whose
//! blocks overlap (a stride below the block's size, a clamped index, a modulo, a read of the next
//! block's element, a grid row without a factor), each at 1, 2, 8 and 16 threads, against what
//! block order gives (computed here) and against the reference paths (which keep the shadow).

use warpscope_emu::{Arg, Launch, Limits, run};

const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Kernel `k(a, b, n)`: `body` computes the element index in `%r5` from `%r2` (ctaid.x), `%r3`
/// (ntid.x), `%r4` (tid.x), `%r8` (ctaid.y), `%r10` (tid.y) and `%r1` (n), then reads `a[%r6]`
/// when `%r6` is set by `body` (else `a[%r5]`) and stores `a-value + ctaid.x + 1000 ctaid.y` at
/// `b[%r5]`.
fn kernel(body: &str, read: Option<&str>) -> String {
    let read = read.unwrap_or(" mov.u32 %r6, %r5;");
    format!(
        "{HEAD}.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)\n{{\n\
         .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n\
         ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u32 %r1, [n];\n\
         cvta.to.global.u64 %rd3, %rd1;\n cvta.to.global.u64 %rd4, %rd2;\n\
         mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
         mov.u32 %r8, %ctaid.y;\n mov.u32 %r10, %tid.y;\n{body}\n{read}\n\
         mul.wide.u32 %rd5, %r6, 4;\n add.s64 %rd6, %rd3, %rd5;\n ld.global.u32 %r20, [%rd6];\n\
         mad.lo.s32 %r21, %r8, 1000, %r2;\n add.s32 %r22, %r20, %r21;\n\
         mul.wide.u32 %rd7, %r5, 4;\n add.s64 %rd8, %rd4, %rd7;\n st.global.u32 [%rd8], %r22;\n\
         ret;\n}}\n"
    )
}

/// What block order gives: blocks in order (x fastest), threads in order, each
/// `b[idx] = a[rd] + ctaid.x + 1000 ctaid.y` with `a` and `b` one buffer when `same`.
fn block_order(
    grid: [u32; 2],
    block: [u32; 2],
    len: usize,
    same: bool,
    idx: impl Fn(u32, u32, u32, u32) -> usize,
    rd: impl Fn(u32, u32, u32, u32) -> usize,
) -> Vec<u32> {
    let a: Vec<u32> = (0..len as u32).map(|i| i * 3 + 1).collect();
    let mut b = if same { a.clone() } else { vec![0u32; len] };
    for cy in 0..grid[1] {
        for cx in 0..grid[0] {
            // each thread reads one word and then writes one; the kernels here read no word that
            // another thread of the same block writes before it (or every such thread writes the
            // value block order leaves last), so a block's reads come first
            let mut writes = Vec::new();
            for ty in 0..block[1] {
                for tx in 0..block[0] {
                    let v = if same {
                        b[rd(cx, cy, tx, ty)]
                    } else {
                        a[rd(cx, cy, tx, ty)]
                    };
                    writes.push((idx(cx, cy, tx, ty), v + cx + 1000 * cy));
                }
            }
            for (i, v) in writes {
                b[i] = v;
            }
        }
    }
    b
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

/// `b` after the launch at `threads` threads (`reference`: the reference paths, which keep the
/// shadow); `same`: `a` and `b` are one buffer (the kernel gets its address twice).
#[allow(clippy::too_many_arguments)]
fn launch(
    src: &str,
    grid: [u32; 2],
    block: [u32; 2],
    len: usize,
    n: u32,
    threads: usize,
    reference: bool,
    same: bool,
) -> Vec<u32> {
    let prog = warpscope_ptx::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    let a: Vec<u8> = (0..len as u32).flat_map(|i| (i * 3 + 1).to_le_bytes()).collect();
    let args = if same {
        // one buffer after the parameters, its contents `a`'s values, both pointers at it
        let mut args = vec![Arg::U64(0), Arg::U64(0), Arg::U32(n), Arg::Buffer(a)];
        let base = warpscope_emu::buffer_layout(&args).0[3].expect("a buffer");
        args[0] = Arg::U64(base);
        args[1] = Arg::U64(base);
        args
    } else {
        vec![Arg::Buffer(a), Arg::Buffer(vec![0; 4 * len]), Arg::U32(n)]
    };
    let launch = Launch::new([grid[0], grid[1], 1], [block[0], block[1], 1], args);
    let limits = Limits {
        reference_paths: reference,
        ..Limits::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let res = pool.install(|| run(&prog, "k", &launch, &limits, |_| ()).unwrap());
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    words(res.buffer(if same { 3 } else { 1 }).unwrap())
}

/// Every thread count and the reference paths give `want`.
#[allow(clippy::too_many_arguments)]
fn check(
    name: &str,
    body: &str,
    read: Option<&str>,
    grid: [u32; 2],
    block: [u32; 2],
    len: usize,
    n: u32,
    same: bool,
    want: &[u32],
) {
    let src = kernel(body, read);
    for threads in [1, 2, 8, 16] {
        for reference in [false, true] {
            let got = launch(&src, grid, block, len, n, threads, reference, same);
            assert!(
                got == want,
                "{name}: {threads} threads (reference {reference}) differ from block order"
            );
        }
    }
}

const ONE_D: &str = " mad.lo.s32 %r5, %r2, %r3, %r4;";

#[test]
fn provable_launches_give_block_orders_bytes() {
    // one element per thread
    let want = block_order(
        [64, 1],
        [128, 1],
        64 * 128,
        false,
        |cx, _, tx, _| (cx * 128 + tx) as usize,
        |cx, _, tx, _| (cx * 128 + tx) as usize,
    );
    check("one_d", ONE_D, None, [64, 1], [128, 1], 64 * 128, 0, false, &want);
    // row-major 2-D: (ctaid.y * 8 + tid.y) * n + ctaid.x * 16 + tid.x over 64 x 64
    let body = " mad.lo.s32 %r7, %r2, %r3, %r4;\n shl.b32 %r9, %r8, 3;\n add.s32 %r11, %r9, %r10;\n\
                mad.lo.s32 %r5, %r11, %r1, %r7;";
    let at = |cx: u32, cy: u32, tx: u32, ty: u32| ((cy * 8 + ty) * 64 + cx * 16 + tx) as usize;
    let want = block_order([4, 8], [16, 8], 64 * 64, false, at, at);
    check("two_d", body, None, [4, 8], [16, 8], 64 * 64, 64, false, &want);
    // in place in one buffer: b[i] = b[i] + ...
    let at = |cx: u32, _: u32, tx: u32, _: u32| (cx * 128 + tx) as usize;
    let want = block_order([64, 1], [128, 1], 64 * 128, true, at, at);
    check(
        "in_place",
        ONE_D,
        None,
        [64, 1],
        [128, 1],
        64 * 128,
        0,
        true,
        &want,
    );
}

#[test]
fn overlapping_launches_that_look_affine_give_block_orders_bytes() {
    let len = 64 * 128;
    // a stride of 64 elements for blocks of 128 threads
    let want = block_order(
        [64, 1],
        [128, 1],
        len,
        false,
        |cx, _, tx, _| (cx * 64 + tx) as usize,
        |cx, _, tx, _| (cx * 64 + tx) as usize,
    );
    check(
        "stride",
        " shl.b32 %r7, %r2, 6;\n add.s32 %r5, %r7, %r4;",
        None,
        [64, 1],
        [128, 1],
        len,
        0,
        false,
        &want,
    );
    // clamped: min(i, 1000)
    let at = |cx: u32, _: u32, tx: u32, _: u32| ((cx * 128 + tx).min(1000)) as usize;
    let want = block_order([64, 1], [128, 1], len, false, at, at);
    check(
        "clamp",
        " mad.lo.s32 %r7, %r2, %r3, %r4;\n min.u32 %r5, %r7, 1000;",
        None,
        [64, 1],
        [128, 1],
        len,
        0,
        false,
        &want,
    );
    // modulo: i % 1000
    let at = |cx: u32, _: u32, tx: u32, _: u32| ((cx * 128 + tx) % 1000) as usize;
    let want = block_order([64, 1], [128, 1], len, false, at, at);
    check(
        "modulo",
        " mad.lo.s32 %r7, %r2, %r3, %r4;\n rem.u32 %r5, %r7, 1000;",
        None,
        [64, 1],
        [128, 1],
        len,
        0,
        false,
        &want,
    );
    // a grid of 2 rows whose index has no ctaid.y: both rows write the same elements
    let at = |cx: u32, _: u32, tx: u32, _: u32| (cx * 128 + tx) as usize;
    let want = block_order([64, 2], [128, 1], len, false, at, at);
    check("rows", ONE_D, None, [64, 2], [128, 1], len, 0, false, &want);
    // in one buffer, each thread reads the element after its own: the next block's first
    let want = block_order(
        [63, 1],
        [128, 1],
        len,
        true,
        |cx, _, tx, _| (cx * 128 + tx) as usize,
        |cx, _, tx, _| (cx * 128 + tx + 1) as usize,
    );
    check(
        "next",
        ONE_D,
        Some(" add.s32 %r6, %r5, 1;"),
        [63, 1],
        [128, 1],
        len,
        0,
        true,
        &want,
    );
}

/// Kernel `k(a, b, n)` with `i = ctaid.x * ntid.x + tid.x` in `%r5`, `ix`, `iy` (2-D) in `%r7`,
/// `%r11`; `body` ends with the store's index in `%r5` and may branch to `END`; then
/// `b[%r5] = a[%r6 or %r5] + ctaid.x + 1000 ctaid.y`.
fn guarded_kernel(body: &str, read: Option<&str>) -> String {
    let read = read.unwrap_or(" mov.u32 %r6, %r5;");
    format!(
        "{HEAD}.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)\n{{\n\
         .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n\
         ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u32 %r1, [n];\n\
         cvta.to.global.u64 %rd3, %rd1;\n cvta.to.global.u64 %rd4, %rd2;\n\
         mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
         mov.u32 %r8, %ctaid.y;\n mov.u32 %r9, %ntid.y;\n mov.u32 %r10, %tid.y;\n\
         mad.lo.s32 %r7, %r2, %r3, %r4;\n mad.lo.s32 %r11, %r8, %r9, %r10;\n\
         mad.lo.s32 %r21, %r8, 1000, %r2;\n{body}\n{read}\n\
         mul.wide.u32 %rd5, %r6, 4;\n add.s64 %rd6, %rd3, %rd5;\n ld.global.u32 %r20, [%rd6];\n\
         add.s32 %r22, %r20, %r21;\n\
         mul.wide.u32 %rd7, %r5, 4;\n add.s64 %rd8, %rd4, %rd7;\n st.global.u32 [%rd8], %r22;\n\
         END:\n ret;\n}}\n"
    )
}

/// Every thread count and the reference paths give `want` for `src`.
#[allow(clippy::too_many_arguments)]
fn check_src(
    name: &str,
    src: &str,
    grid: [u32; 2],
    block: [u32; 2],
    len: usize,
    n: u32,
    same: bool,
    want: &[u32],
) {
    for threads in [1, 2, 8, 16] {
        for reference in [false, true] {
            let got = launch(src, grid, block, len, n, threads, reference, same);
            assert!(
                got == want,
                "{name}: {threads} threads (reference {reference}) differ from block order"
            );
        }
    }
}

#[test]
fn guarded_and_grid_stride_launches_give_block_orders_bytes() {
    let a = |i: usize| i as u32 * 3 + 1;
    // if (i < n) b[i] = a[i] + ctaid.x: 33 blocks of 128 threads over 4,100 elements
    let len = 4100;
    let want: Vec<u32> = (0..len).map(|i| a(i) + (i / 128) as u32).collect();
    let body = " mov.u32 %r5, %r7;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;";
    check_src(
        "guard",
        &guarded_kernel(body, None),
        [33, 1],
        [128, 1],
        len,
        len as u32,
        false,
        &want,
    );
    let body = " mov.u32 %r5, %r7;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 ret;";
    check_src(
        "return",
        &guarded_kernel(body, None),
        [33, 1],
        [128, 1],
        len,
        len as u32,
        false,
        &want,
    );
    // if (ix < 60 && iy < 60) b[iy * 60 + ix] = ...: 4 x 8 blocks of 16 x 8 threads
    let mut want = vec![0u32; 3600];
    for (iy, row) in want.chunks_mut(60).enumerate() {
        for (ix, w) in row.iter_mut().enumerate() {
            *w = a(iy * 60 + ix) + (ix / 16) as u32 + 1000 * (iy / 8) as u32;
        }
    }
    let body = " mad.lo.s32 %r5, %r11, %r1, %r7;\n setp.ge.u32 %p1, %r7, %r1;\n\
                setp.ge.u32 %p2, %r11, %r1;\n or.pred %p3, %p1, %p2;\n @%p3 bra END;";
    check_src(
        "guard_2d",
        &guarded_kernel(body, None),
        [4, 8],
        [16, 8],
        3600,
        60,
        false,
        &want,
    );
    // for (i = ctaid.x * 128 + tid.x; i < n; i += 16 * 128) b[i] = a[i] + ctaid.x
    let len = 10_000;
    let want: Vec<u32> = (0..len).map(|i| a(i) + (i % 2048 / 128) as u32).collect();
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)\n{{\n\
         .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n\
         ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u32 %r1, [n];\n\
         cvta.to.global.u64 %rd3, %rd1;\n cvta.to.global.u64 %rd4, %rd2;\n\
         mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n mov.u32 %r9, %nctaid.x;\n\
         mad.lo.s32 %r10, %r2, %r3, %r4;\n mul.lo.s32 %r11, %r3, %r9;\n\
         setp.ge.s32 %p1, %r10, %r1;\n @%p1 bra END;\nLOOP:\n\
         mul.wide.s32 %rd5, %r10, 4;\n add.s64 %rd6, %rd3, %rd5;\n ld.global.u32 %r20, [%rd6];\n\
         add.s32 %r22, %r20, %r2;\n add.s64 %rd8, %rd4, %rd5;\n st.global.u32 [%rd8], %r22;\n\
         add.s32 %r10, %r10, %r11;\n setp.lt.s32 %p2, %r10, %r1;\n @%p2 bra LOOP;\n\
         END:\n ret;\n}}\n"
    );
    check_src(
        "grid_stride",
        &src,
        [16, 1],
        [128, 1],
        len,
        len as u32,
        false,
        &want,
    );
    // a look-alike the proof refuses: one buffer given twice, if (i < n - 1) b[i] = b[i + 1] + ...
    // (each block reads the first element of the next): block order, thanks to the shadow
    let len = 4100;
    let mut b: Vec<u32> = (0..len).map(a).collect();
    for cx in 0..33 {
        let mut writes = Vec::new();
        for tx in 0..128 {
            let i = cx * 128 + tx;
            if i + 1 < len {
                writes.push((i, b[i + 1] + cx as u32));
            }
        }
        for (i, v) in writes {
            b[i] = v;
        }
    }
    let body = " mov.u32 %r5, %r7;\n sub.s32 %r12, %r1, 1;\n setp.ge.u32 %p1, %r5, %r12;\n @%p1 bra END;";
    let src = guarded_kernel(body, Some(" add.s32 %r6, %r5, 1;"));
    check_src("aliased", &src, [33, 1], [128, 1], len, len as u32, true, &b);
}

#[test]
fn clamped_reads_give_block_orders_bytes() {
    let a = |i: usize| i as u32 * 3 + 1;
    // if (i < n) b[i] = a[min(i + 1, n - 1)] + ctaid.x: 33 blocks of 128 threads over 4,100
    // elements, the read clamped at the end (proven: no block writes `a`)
    let len = 4100;
    let want: Vec<u32> = (0..len)
        .map(|i| a((i + 1).min(len - 1)) + (i / 128) as u32)
        .collect();
    let body = " mov.u32 %r5, %r7;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;";
    let read = " add.s32 %r12, %r5, 1;\n sub.s32 %r13, %r1, 1;\n min.s32 %r6, %r12, %r13;";
    let src = guarded_kernel(body, Some(read));
    check_src("clamped", &src, [33, 1], [128, 1], len, len as u32, false, &want);
    // the look-alike the proof refuses: one buffer given twice, so each block reads the first
    // element of the next: block order, thanks to the shadow
    let mut b: Vec<u32> = (0..len).map(a).collect();
    for cx in 0..33 {
        let mut writes = Vec::new();
        for tx in 0..128 {
            let i = cx * 128 + tx;
            if i < len {
                writes.push((i, b[(i + 1).min(len - 1)] + cx as u32));
            }
        }
        for (i, v) in writes {
            b[i] = v;
        }
    }
    check_src(
        "clamped_aliased",
        &src,
        [33, 1],
        [128, 1],
        len,
        len as u32,
        true,
        &b,
    );
}

/// The element thread `i` reads, of `n`.
type ReadAt = fn(usize, usize) -> usize;

/// The byte thread `i` writes.
type ByteAt = fn(usize) -> usize;

#[test]
fn reads_through_selp_and_modulo_give_block_orders_bytes() {
    let a = |i: usize| i as u32 * 3 + 1;
    let len = 4100;
    let n = len as u32;
    let body = " mov.u32 %r5, %r7;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;";
    // i > 0 ? i - 1 : 0 and i < n - 1 ? i + 1 : n - 1, as nvcc writes them (heat2d's neighbours)
    let left = " add.s32 %r12, %r5, -1;\n setp.gt.s32 %p4, %r5, 0;\n selp.b32 %r6, %r12, 0, %p4;";
    let right = " add.s32 %r13, %r1, -1;\n setp.lt.s32 %p5, %r5, %r13;\n add.s32 %r14, %r5, 1;\n\
                 selp.b32 %r6, %r14, %r13, %p5;";
    let cases: [(&str, &str, ReadAt); 5] = [
        ("selp_left", left, |i, _| i.saturating_sub(1)),
        ("selp_right", right, |i, n| (i + 1).min(n - 1)),
        ("rem", " rem.u32 %r6, %r5, 1000;", |i, _| i % 1000),
        ("and", " and.b32 %r6, %r5, 1023;", |i, _| i & 1023),
        ("shr", " shr.u32 %r6, %r5, 2;", |i, _| i >> 2),
    ];
    for (name, read, at) in cases {
        let src = guarded_kernel(body, Some(read));
        // a buffer nobody writes: proven, every element its own
        let want: Vec<u32> = (0..len).map(|i| a(at(i, len)) + (i / 128) as u32).collect();
        check_src(name, &src, [33, 1], [128, 1], len, n, false, &want);
        // the look-alike: one buffer given twice, so blocks read what others write (refused, the
        // shadow gives block order: blocks in order, and in a block its warps one after another,
        // each warp's loads before its stores, since nothing here makes a warp yield)
        let mut b: Vec<u32> = (0..len).map(a).collect();
        for cx in 0..33 {
            for warp in 0..4 {
                let mut writes = Vec::new();
                for tx in 32 * warp..32 * warp + 32 {
                    let i = cx * 128 + tx;
                    if i < len {
                        writes.push((i, b[at(i, len)] + cx as u32));
                    }
                }
                for (i, v) in writes {
                    b[i] = v;
                }
            }
        }
        check_src(
            &format!("{name}_aliased"),
            &src,
            [33, 1],
            [128, 1],
            len,
            n,
            true,
            &b,
        );
    }
}

/// `out[idx] = (a[i] + ctaid.x) as byte` for `i < n`, `idx` from `%r5` (`i`) into `%r6` by `idx`.
fn byte_kernel(idx: &str) -> String {
    format!(
        "{HEAD}.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)\n{{\n\
         .reg .pred %p<8>;\n .reg .b16 %rs<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n\
         ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u32 %r1, [n];\n\
         cvta.to.global.u64 %rd3, %rd1;\n cvta.to.global.u64 %rd4, %rd2;\n\
         mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
         mad.lo.s32 %r5, %r2, %r3, %r4;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;\n{idx}\n\
         mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n ld.global.u32 %r20, [%rd6];\n\
         add.s32 %r22, %r20, %r2;\n cvt.u16.u32 %rs1, %r22;\n\
         cvt.u64.u32 %rd7, %r6;\n add.s64 %rd8, %rd4, %rd7;\n st.global.u8 [%rd8], %rs1;\n\
         END:\n ret;\n}}\n"
    )
}

/// `b`'s bytes after a launch of `src` over `a` (words `3 i + 1`) and `b` (`out` bytes, zero).
fn run_bytes(
    src: &str,
    grid: u32,
    block: u32,
    len: usize,
    out: usize,
    threads: usize,
    reference: bool,
) -> Vec<u8> {
    let prog = warpscope_ptx::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    let a: Vec<u8> = (0..len as u32).flat_map(|i| (i * 3 + 1).to_le_bytes()).collect();
    let args = vec![Arg::Buffer(a), Arg::Buffer(vec![0; out]), Arg::U32(len as u32)];
    let launch = Launch::new([grid, 1, 1], [block, 1, 1], args);
    let limits = Limits {
        reference_paths: reference,
        ..Limits::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let res = pool.install(|| run(&prog, "k", &launch, &limits, |_| ()).unwrap());
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    res.buffer(1).unwrap().to_vec()
}

#[test]
fn byte_stores_give_block_orders_bytes() {
    let a = |i: usize| i as u32 * 3 + 1;
    let (len, grid, block) = (4100usize, 33u32, 128u32);
    // out[i]: each block its own 128 bytes, four blocks' bytes in no word, but a thread's bytes
    // share words with its neighbours'; out[i + 2]: every block's first two bytes share a word
    // with the previous block's last two (proven on bytes); out[i - (i / 128)] (a stride of 127):
    // each block's last byte is the next block's first (refused, block order from the shadow)
    let cases: [(&str, &str, ByteAt); 3] = [
        ("bytes", " mov.u32 %r6, %r5;", |i| i),
        ("bytes_shifted", " add.s32 %r6, %r5, 2;", |i| i + 2),
        (
            "bytes_overlap",
            " mul.lo.s32 %r7, %r2, 127;\n add.s32 %r6, %r7, %r4;",
            |i| i - i / 128,
        ),
    ];
    for (name, idx, at) in cases {
        let mut want = vec![0u8; len + 2];
        for i in 0..len {
            want[at(i)] = (a(i) + (i / 128) as u32) as u8;
        }
        let src = byte_kernel(idx);
        for threads in [1, 2, 8, 16] {
            for reference in [false, true] {
                let got = run_bytes(&src, grid, block, len, len + 2, threads, reference);
                assert!(
                    got == want,
                    "{name}: {threads} threads (reference {reference}) differ from block order"
                );
            }
        }
    }
}
