//! Cost of the fix advisor: the whole advice (padding and swizzle search, then the bank-permutation
//! search) on the classic `strided` kernel, whose array only a permutation fixes, and on the seed's
//! rectangular tile, which a padding fixes (no permutation search).

use std::sync::Arc;

use divan::Bencher;
use warpscope_analysis::fix::{self, AdviseConfig, Target};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits};

fn main() {
    divan::main();
}

fn trace(ptx: &str, sass: &str, kernel: &str, launch: Launch) -> (fix::Trace, Vec<fix::ArrayInfo>, u32) {
    let program = warpscope_ptx::compile(ptx).unwrap();
    let k = warpscope_toolchain::sass::parse_disassembly(sass).unwrap();
    let recon = Reconciliation::build(&program, kernel, &machine_accesses(&k[0]));
    let t = fix::record(&program, kernel, &launch, &Limits::default(), Arc::new(recon)).unwrap();
    let arrays = fix::arrays(program.kernel(kernel).unwrap(), launch.dyn_smem);
    (t, arrays, launch.block.iter().product())
}

fn bench_advice(b: Bencher, (t, arrays, threads): (fix::Trace, Vec<fix::ArrayInfo>, u32)) {
    let cfg = AdviseConfig {
        target: Target::parse("sm_90").unwrap(),
        threads,
        registers: Some(32),
        registers_from: "bench".into(),
        source: None,
    };
    b.bench(|| fix::advise(divan::black_box(&t), &arrays, &cfg).unwrap());
}

#[divan::bench(sample_count = 10)]
fn strided_permutation(b: Bencher) {
    let launch = Launch::new([2, 1, 1], [128, 1, 1], parse_args("buf:1024 buf:8192").unwrap());
    bench_advice(
        b,
        trace(
            include_str!("../../cli/fixtures/classic/strided.ptx"),
            include_str!("../../cli/fixtures/classic/strided.sass"),
            "strided",
            launch,
        ),
    );
}

#[divan::bench(sample_count = 10)]
fn rect_tile_padding(b: Bencher) {
    let launch = Launch::new([1, 1, 1], [32, 16, 1], parse_args("buf:2048").unwrap());
    bench_advice(
        b,
        trace(
            include_str!("../../cli/fixtures/seeds/rectRowCol.ptx"),
            include_str!("../../cli/fixtures/seeds/rectRowCol.sass"),
            "rectRowCol",
            launch,
        ),
    );
}
