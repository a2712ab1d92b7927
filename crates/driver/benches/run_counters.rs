//! The emulator's cost per thread-instruction with `warpscope run`'s default counters (the bank,
//! divergence and global-sector sinks, as `warpscope_cudart`'s launch analysis asks for them), on
//! one thread, on the kernels of `calibration/run/bench/` (benches/data/run_*.ptx: nvcc 13
//! `-O2 -arch=sm_90 -lineinfo -ptx`) at small sizes: a shared-memory tree reduction (2^20 ints),
//! a transpose through shared tiles (1024^2), a sum of two matrices (1024^2, one short block per
//! 1024 elements) and a compute loop (200 steps per thread). divan reports thread-instructions per
//! second (the item counter). `cargo bench -p warpscope-driver --bench run_counters`.

use divan::Bencher;
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::{Arg, Launch, Limits, Program};
use warpscope_model::arch::Arch;

fn main() {
    divan::main();
}

/// What `warpscope run` counts on every launch.
fn sections() -> Sections {
    Sections {
        banks: true,
        divergence: true,
        ..Sections::NONE
    }
}

fn bench(b: Bencher, ptx: &str, kernel: &str, launch: Launch) {
    let program: Program = warpscope_ptx::compile(ptx).unwrap();
    let kernel = program
        .kernels
        .iter()
        .find(|k| k.name.contains(kernel))
        .unwrap()
        .name
        .clone();
    let arch = Arch::parse("sm_90").unwrap();
    let widths = Widths::ptx_level("PTX-level");
    let opts = RunOptions {
        global_sectors: true,
        ..RunOptions::default()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let run = || {
        pool.install(|| analyze_launch(&program, &kernel, &launch, &sections(), arch, &widths, &opts))
            .unwrap()
    };
    let ti = run().thread_insts;
    b.counter(divan::counter::ItemsCount::new(ti))
        .bench(|| run().warp_insts);
}

fn ints(n: usize, f: impl Fn(usize) -> i32) -> Vec<u8> {
    (0..n).flat_map(|i| f(i).to_le_bytes()).collect()
}

/// reduce.cu's kernel on 2^20 ints: 2048 blocks of 256 threads.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn reduce(b: Bencher) {
    let n = 1 << 20;
    let launch = Launch::new(
        [(n / 512) as u32, 1, 1],
        [256, 1, 1],
        vec![
            Arg::Buffer(ints(n, |i| (i % 251) as i32 - 125)),
            Arg::Buffer(vec![0; n / 512 * 4]),
            Arg::I32(n as i32),
        ],
    );
    bench(b, include_str!("data/run_reduce.ptx"), "reduce", launch);
}

/// transpose.cu's kernel on 1024 x 1024 floats: 32 x 32 blocks of 32 x 8 threads.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn transpose(b: Bencher) {
    let n = 1024usize;
    let launch = Launch::new(
        [32, 32, 1],
        [32, 8, 1],
        vec![
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::Buffer(ints(n * n, |i| i as i32)),
            Arg::I32(n as i32),
        ],
    );
    bench(b, include_str!("data/run_transpose.ptx"), "transpose", launch);
}

/// summatrix.cu's kernel on 1024 x 1024 floats: 32 x 32 blocks of 32 x 32 threads.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn summatrix(b: Bencher) {
    let n = 1024usize;
    let launch = Launch::new(
        [32, 32, 1],
        [32, 32, 1],
        vec![
            Arg::Buffer(ints(n * n, |i| (i % 1000) as i32)),
            Arg::Buffer(ints(n * n, |i| (i % 777) as i32)),
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::I32(n as i32),
            Arg::I32(n as i32),
        ],
    );
    bench(b, include_str!("data/run_summatrix.ptx"), "sumMatrix", launch);
}

/// loop.cu's kernel, 200 steps per thread: 64 blocks of 256 threads.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn compute_loop(b: Bencher) {
    let launch = Launch::new(
        [64, 1, 1],
        [256, 1, 1],
        vec![Arg::Buffer(vec![0; 64 * 256 * 4]), Arg::I32(200)],
    );
    bench(b, include_str!("data/run_loop.ptx"), "spin", launch);
}

/// The emulator alone on the same reduction (no sink): what the counters add to it.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn reduce_no_sink(b: Bencher) {
    let program = warpscope_ptx::compile(include_str!("data/run_reduce.ptx")).unwrap();
    let n = 1 << 20;
    let launch = Launch::new(
        [(n / 512) as u32, 1, 1],
        [256, 1, 1],
        vec![
            Arg::Buffer(ints(n, |i| (i % 251) as i32 - 125)),
            Arg::Buffer(vec![0; n / 512 * 4]),
            Arg::I32(n as i32),
        ],
    );
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let run = || {
        pool.install(|| warpscope_emu::run(&program, "_Z6reducePKiPii", &launch, &Limits::default(), |_| ()))
            .unwrap()
    };
    let ti = run().counters.thread_insts;
    b.counter(divan::counter::ItemsCount::new(ti))
        .bench(|| run().counters.warp_insts);
}
