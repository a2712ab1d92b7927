//! Emulator speed: ALU-heavy loop (thread-instructions per second), whole-grid tiled matmul
//! n = 512, and the seed suite. `cargo bench -p warpscope-emu` prints the times; the ALU bench
//! also reports thread-instructions via divan's item counter.

use std::path::PathBuf;

use warpscope_emu::{Arg, Launch, Limits, Program, run};

fn main() {
    divan::main();
}

fn program(file: &str) -> Program {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    warpscope_ptx::compile(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// 2000 iterations of 8 integer/float ALU ops per thread.
const ALU: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry alu(.param .u64 out)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .f32 %f<4>;\n .reg .b64 %rd<4>;\n\
 mov.u32 %r1, %tid.x;\n mov.u32 %r2, 0;\n mov.u32 %r3, 12345;\n mov.f32 %f1, 0f3F800000;\n\
$L:\n add.s32 %r3, %r3, %r1;\n xor.b32 %r4, %r3, %r2;\n mul.lo.s32 %r5, %r4, 33;\n shl.b32 %r6, %r5, 3;\n\
 mad.lo.s32 %r3, %r6, 7, %r5;\n fma.rn.f32 %f1, %f1, 0f3F7FF000, 0f3A000000;\n add.s32 %r2, %r2, 1;\n\
 setp.lt.u32 %p1, %r2, 2000;\n @%p1 bra $L;\n\
 ld.param.u64 %rd1, [out];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r3;\n ret;\n}\n";

#[divan::bench(sample_count = 5)]
fn alu_loop(b: divan::Bencher) {
    let p = warpscope_ptx::compile(ALU).unwrap();
    let l = Launch::new([8, 1, 1], [256, 1, 1], vec![Arg::Buffer(vec![0; 8 * 256 * 4])]);
    let ti = run(&p, "alu", &l, &Limits::default(), |_| ())
        .unwrap()
        .counters
        .thread_insts;
    b.counter(divan::counter::ItemsCount::new(ti))
        .bench(|| run(&p, "alu", &l, &Limits::default(), |_| ()).unwrap());
}

/// The ALU loop on one thread: thread-instructions per second per core.
#[divan::bench(sample_count = 5)]
fn alu_loop_one_core(b: divan::Bencher) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let p = warpscope_ptx::compile(ALU).unwrap();
    let l = Launch::new([2, 1, 1], [256, 1, 1], vec![Arg::Buffer(vec![0; 2 * 256 * 4])]);
    let ti = run(&p, "alu", &l, &Limits::default(), |_| ())
        .unwrap()
        .counters
        .thread_insts;
    b.counter(divan::counter::ItemsCount::new(ti))
        .bench(|| pool.install(|| run(&p, "alu", &l, &Limits::default(), |_| ()).unwrap()));
}

#[divan::bench(sample_count = 3)]
fn matmul_512(b: divan::Bencher) {
    let p = program("kernels.ptx");
    let n = 512usize;
    let a: Vec<u8> = (0..n * n).flat_map(|i| ((i % 7) as f32).to_le_bytes()).collect();
    let l = Launch::new(
        [32, 32, 1],
        [16, 16, 1],
        vec![
            Arg::Buffer(a.clone()),
            Arg::Buffer(a),
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::I32(n as i32),
        ],
    );
    b.bench(|| run(&p, "matmul", &l, &Limits::default(), |_| ()).unwrap());
}

#[divan::bench(sample_count = 10)]
fn seed_suite(b: divan::Bencher) {
    let sq = program("seeds_square.ptx");
    let re = program("seeds_rect.ptx");
    b.bench(|| {
        for (p, bx, by, pad) in [(&sq, 32u32, 32u32, 1u32), (&re, 32, 16, 2)] {
            for k in &p.kernels {
                let mut l = Launch::new([1, 1, 1], [bx, by, 1], vec![Arg::Buffer(vec![0; 4096 * 4])]);
                if k.name.contains("Dyn") {
                    l.dyn_smem = (bx + pad) * by.max(bx) * 4;
                }
                let r = run(p, &k.name, &l, &Limits::default(), |_| ()).unwrap();
                assert!(r.faults.is_empty());
            }
        }
    });
}
