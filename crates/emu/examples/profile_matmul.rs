//! Runs the tiled matmul of the test fixtures once (`n` from the first argument, default 128):
//! a small driver for profilers (`valgrind --tool=callgrind`).

use std::path::PathBuf;

use warpscope_emu::{Arg, Launch, Limits, run};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(128);
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/kernels.ptx");
    let prog = warpscope_ptx::compile(&std::fs::read_to_string(p).unwrap()).unwrap();
    let a: Vec<u8> = (0..n * n).flat_map(|i| ((i % 7) as f32).to_le_bytes()).collect();
    let g = (n / 16) as u32;
    let l = Launch::new(
        [g, g, 1],
        [16, 16, 1],
        vec![
            Arg::Buffer(a.clone()),
            Arg::Buffer(a),
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::I32(n as i32),
        ],
    );
    let t = std::time::Instant::now();
    let r = run(&prog, "matmul", &l, &Limits::default(), |_| ()).unwrap();
    eprintln!(
        "n = {n}: {:?}, {} thread-instructions, {} faults",
        t.elapsed(),
        r.counters.thread_insts,
        r.faults.len()
    );
}
