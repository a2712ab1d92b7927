//! Cost of the bank analysis: one request through the model's fast path, a whole emulated launch
//! with the bank sink beside the same launch with an empty sink (the analysis's overhead), and the
//! speed benchmark's row for `warpscope analyze`: the 512x512 tiled matmul (crates/cli/fixtures/speed)
//! with its bank run and its divergence run, as the command does them (scripts/bench-speed.sh times the
//! command itself).

use std::sync::Arc;

use divan::Bencher;
use warpscope_analysis::banks::{self, BankSink, Request, Side};
use warpscope_analysis::divergence;
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits};
use warpscope_model::arch::Arch;

fn main() {
    divan::main();
}

fn h100() -> &'static Arch {
    Arch::parse("sm_90").unwrap()
}

#[divan::bench(args = [1, 32])]
fn request(b: Bencher, stride_words: u64) {
    let addrs: [u64; 32] = std::array::from_fn(|l| 4 * stride_words * l as u64);
    let req = Request {
        width: 4,
        mask: u32::MAX,
        addrs: &addrs,
    };
    b.bench(|| banks::cost(h100(), Side::Load, divan::black_box(&req)));
}

fn matmul() -> (warpscope_ptx::Program, Arc<Reconciliation>, Launch) {
    let ptx = include_str!("../../cli/fixtures/classic/matmulTiled.ptx");
    let sass = include_str!("../../cli/fixtures/classic/matmulTiled.sass");
    let program = warpscope_ptx::compile(ptx).unwrap();
    let k = warpscope_toolchain::sass::parse_disassembly(sass).unwrap();
    let recon = Reconciliation::build(&program, "matmulTiled", &machine_accesses(&k[0]));
    let args = parse_args("buf:16384 buf:16384 buf:16384").unwrap();
    (
        program,
        Arc::new(recon),
        Launch::new([4, 4, 1], [16, 16, 1], args),
    )
}

#[divan::bench]
fn matmul_launch_with_bank_sink(b: Bencher) {
    let (program, recon, launch) = matmul();
    b.bench(|| {
        warpscope_emu::run(&program, "matmulTiled", &launch, &Limits::default(), |blk| {
            BankSink::new(blk, h100(), recon.clone())
        })
        .unwrap()
    });
}

#[divan::bench]
fn matmul_launch_with_empty_sink(b: Bencher) {
    let (program, _, launch) = matmul();
    b.bench(|| warpscope_emu::run(&program, "matmulTiled", &launch, &Limits::default(), |_| ()).unwrap());
}

/// The speed benchmark's launch: C = A B for 512x512 floats, 1024 blocks of 16x16 threads.
fn matmul_512() -> (warpscope_ptx::Program, Arc<Reconciliation>, Launch) {
    let ptx = include_str!("../../cli/fixtures/speed/matmul.ptx");
    let sass = include_str!("../../cli/fixtures/speed/matmul.sass");
    let program = warpscope_ptx::compile(ptx).unwrap();
    let k = warpscope_toolchain::sass::parse_disassembly(sass).unwrap();
    let recon = Reconciliation::build(&program, "matmul", &machine_accesses(&k[0]));
    let args = parse_args("buf:1048576 buf:1048576 buf:1048576:zero i32:512").unwrap();
    (
        program,
        Arc::new(recon),
        Launch::new([32, 32, 1], [16, 16, 1], args),
    )
}

/// `warpscope analyze`'s emulation work on the 512x512 matmul: banks (machine-code widths), then
/// divergence.
#[divan::bench(sample_count = 3)]
fn matmul_512_analyze(b: Bencher) {
    let (program, recon, launch) = matmul_512();
    b.bench(|| {
        let run = banks::run(
            &program,
            "matmul",
            &launch,
            &Limits::default(),
            h100(),
            recon.clone(),
        )
        .unwrap();
        let div = divergence::run(&program, "matmul", &launch, &Limits::default(), false).unwrap();
        (run, div)
    });
}
