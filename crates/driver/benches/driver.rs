//! What `check` costs beside `analyze` on one launch: the 512 x 512 tiled matrix multiply (grid
//! 32 x 32, block 16 x 16; benches/data/matmulTiled512.ptx, nvcc 13 `-O3 -lineinfo`) through
//! `analyze_launch` with `check`'s section (hazards), `analyze`'s default (every emulated section),
//! and the bank and divergence sections alone. Each is one emulation. The goal: hazards within 1.5x of
//! the bank section alone, and of the whole analyze.

use divan::Bencher;
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::{Arg, Launch, Program};
use warpscope_model::arch::Arch;

fn main() {
    divan::main();
}

fn matmul() -> (Program, Launch) {
    let text = include_str!("data/matmulTiled512.ptx");
    let program = warpscope_ptx::compile(text).unwrap();
    let bytes = 512 * 512 * 4;
    let launch = Launch::new(
        [32, 32, 1],
        [16, 16, 1],
        vec![
            Arg::Buffer(vec![0; bytes]),
            Arg::Buffer(vec![1; bytes]),
            Arg::Buffer(vec![2; bytes]),
        ],
    );
    (program, launch)
}

fn bench(b: Bencher, sections: Sections) {
    let (program, launch) = matmul();
    let arch = Arch::parse("sm_90").unwrap();
    let widths = Widths::ptx_level("PTX-level");
    let opts = RunOptions::default();
    b.bench(|| {
        analyze_launch(
            &program,
            "matmulTiled512",
            &launch,
            &sections,
            arch,
            &widths,
            &opts,
        )
        .unwrap()
        .warp_insts
    });
}

/// `warpscope check`: the hazards section.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn check_hazards(b: Bencher) {
    bench(
        b,
        Sections {
            hazards: true,
            ..Sections::NONE
        },
    );
}

/// `warpscope analyze --section banks,divergence` (analyze before sections existed).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn analyze_banks_divergence(b: Bencher) {
    bench(
        b,
        Sections {
            banks: true,
            divergence: true,
            ..Sections::NONE
        },
    );
}

/// `warpscope analyze` (every emulated section in one run).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn analyze_all_sections(b: Bencher) {
    bench(b, Sections::ALL);
}
