//! Global-memory races (`warpscope_analysis::global_races`) through the driver, on the kernels of
//! `tests/data/global_races.cu` (its PTX built by nvcc with `-lineinfo`): each shape with and without
//! the synchronisation that orders it. Every launch runs twice, its blocks in a one-thread pool (in
//! block order from the start) and in a four-thread pool (in parallel, and again in order when
//! blocks communicate), and both must find the same.

use std::path::PathBuf;

use warpscope_analysis::hazards::{Finding, FindingKind, Severity};
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch, analyze_launch_in};
use warpscope_emu::{Arg, Launch, Program, mem::Global};
use warpscope_model::arch::Arch;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn program() -> Program {
    let ptx = std::fs::read_to_string(data("global_races.ptx")).unwrap();
    warpscope_ptx::compile(&ptx).unwrap()
}

/// The source line (1-based) of the first line holding `snippet` after `kernel`'s signature.
fn line(kernel: &str, snippet: &str) -> u32 {
    let src = std::fs::read_to_string(data("global_races.cu")).unwrap();
    let lines: Vec<&str> = src.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains(&format!("void {kernel}(")))
        .unwrap_or_else(|| panic!("no kernel {kernel}"));
    let at = lines[start..]
        .iter()
        .position(|l| l.contains(snippet))
        .unwrap_or_else(|| panic!("no `{snippet}` in {kernel}"));
    (start + at + 1) as u32
}

fn sections() -> Sections {
    Sections {
        hazards: true,
        ..Sections::NONE
    }
}

fn opts(same_value: bool) -> RunOptions {
    RunOptions {
        same_value_writes: same_value,
        ..RunOptions::default()
    }
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

fn zeros(n: usize) -> Arg {
    Arg::Buffer(vec![0; n])
}

/// The hazard findings of one launch, the same in block order and in parallel.
fn check(
    kernel: &str,
    grid: u32,
    block: u32,
    args: Vec<Arg>,
    cooperative: bool,
    same_value: bool,
) -> Vec<Finding> {
    let p = program();
    let arch = Arch::parse("sm_90").unwrap();
    let run = |threads: usize| {
        in_pool(threads, || {
            let mut launch = Launch::new([grid, 1, 1], [block, 1, 1], args.clone());
            launch.cooperative = cooperative;
            let r = analyze_launch(
                &p,
                kernel,
                &launch,
                &sections(),
                arch,
                &Widths::ptx_level("PTX-level"),
                &opts(same_value),
            )
            .unwrap();
            assert!(r.faults.is_empty(), "{kernel}: {:?}", r.fault_messages);
            let h = r.hazards.unwrap();
            assert!(h.global_shadow.is_some_and(|(bytes, over)| bytes > 0 && !over));
            h.findings
        })
    };
    let ordered = run(1);
    let parallel = run(4);
    assert_eq!(ordered, parallel, "{kernel}: one thread and four threads differ");
    ordered
}

fn global_races(f: &[Finding]) -> Vec<&Finding> {
    f.iter().filter(|f| f.kind == FindingKind::GlobalRace).collect()
}

fn show(f: &[Finding]) -> String {
    f.iter()
        .map(|f| format!("{:?} {:?} {:?}: {}", f.severity, f.kind, f.lines, f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Exactly one error-severity global race, between `first` and `second` (source lines).
fn assert_one_race(kernel: &str, f: &[Finding], first: u32, second: u32) -> Finding {
    let races: Vec<&Finding> = global_races(f)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(
        races.iter().any(|r| r.lines == vec![first, second]),
        "{kernel}: no race between lines {first} and {second}:\n{}",
        show(f)
    );
    races
        .into_iter()
        .find(|r| r.lines == vec![first, second])
        .unwrap()
        .clone()
}

fn assert_no_race(kernel: &str, f: &[Finding]) {
    assert!(
        global_races(f).is_empty() && !f.iter().any(|f| f.severity == Severity::Error),
        "{kernel}: unexpected findings:\n{}",
        show(f)
    );
}

#[test]
fn blocks_that_write_and_read_one_array_race() {
    let f = check("cross_block", 2, 64, vec![zeros(256), zeros(256)], false, false);
    let r = assert_one_race(
        "cross_block",
        &f,
        line("cross_block", "a[threadIdx.x] = threadIdx.x + 1"),
        line("cross_block", "out[threadIdx.x] = a[threadIdx.x]"),
    );
    assert!(
        r.message.starts_with("WRITE-READ race on global byte"),
        "{}",
        r.message
    );
    assert!(
        r.message.contains("block (0,0,0)") && r.message.contains("block (1,0,0)"),
        "{}",
        r.message
    );
    assert!(r.message.contains("of argument 0"), "{}", r.message);
    assert_eq!(r.example.block, 1);
    // 64 threads, 4 bytes each
    assert_eq!(r.count, 256);
}

#[test]
fn a_barrier_orders_two_warps_of_a_block() {
    let k = "block_no_sync";
    let f = check(k, 1, 64, vec![zeros(256), zeros(256)], false, false);
    let r = assert_one_race(
        k,
        &f,
        line(k, "a[threadIdx.x] = threadIdx.x;"),
        line(k, "out[threadIdx.x] = a["),
    );
    assert!(
        r.message.contains("one block, not ordered by a barrier"),
        "{}",
        r.message
    );
    let f = check("block_sync", 1, 64, vec![zeros(256), zeros(256)], false, false);
    assert_no_race("block_sync", &f);
}

#[test]
fn syncwarp_orders_lanes_of_one_warp() {
    let k = "warp_no_sync";
    let f = check(k, 1, 32, vec![zeros(128), zeros(128)], false, false);
    let r = assert_one_race(
        k,
        &f,
        line(k, "a[threadIdx.x] = threadIdx.x;"),
        line(k, "out[threadIdx.x] = a["),
    );
    assert!(r.message.contains("__syncwarp"), "{}", r.message);
    let f = check("warp_sync", 1, 32, vec![zeros(128), zeros(128)], false, false);
    assert_no_race("warp_sync", &f);
}

#[test]
fn a_fenced_flag_orders_producer_and_consumer_blocks() {
    let args = || vec![zeros(256), zeros(4), zeros(256)];
    let f = check("fence_flag", 3, 64, args(), false, false);
    assert_no_race("fence_flag", &f);
    // both barriers carry the order: the producer's before its fence, the consumer's after its
    // acquire
    assert!(
        !f.iter().any(|f| f.kind == FindingKind::RedundantBarrier),
        "{}",
        show(&f)
    );
    assert_no_race(
        "release_acquire",
        &check("release_acquire", 3, 64, args(), false, false),
    );
    // no fences: the data races
    let k = "flag_no_fence";
    let f = check(k, 3, 64, args(), false, false);
    let r = assert_one_race(
        k,
        &f,
        line(k, "data[threadIdx.x] = threadIdx.x + 7"),
        line(k, "out[threadIdx.x] = data[threadIdx.x]"),
    );
    assert!(r.message.contains("different blocks"), "{}", r.message);
    // a .cta release orders nothing across blocks
    let k = "release_acquire_cta";
    let f = check(k, 3, 64, args(), false, false);
    assert_one_race(
        k,
        &f,
        line(k, "data[threadIdx.x] = threadIdx.x + 7"),
        line(k, "out[threadIdx.x] = data[threadIdx.x]"),
    );
}

#[test]
fn a_plain_store_to_the_flag_races_with_the_volatile_load() {
    let k = "plain_flag";
    let f = check(k, 2, 64, vec![zeros(256), zeros(4), zeros(256)], false, false);
    assert_one_race(
        k,
        &f,
        line(k, "*flag = 1;"),
        line(k, "while (*(volatile int *)flag == 0)"),
    );
    // the fences still order the data
    let data_line = line(k, "out[threadIdx.x] = data[threadIdx.x]");
    assert!(
        !global_races(&f).iter().any(|r| r.lines.contains(&data_line)),
        "{}",
        show(&f)
    );
}

#[test]
fn atomics_do_not_race_with_atomics_but_with_a_plain_load() {
    assert_no_race(
        "atomics_only",
        &check("atomics_only", 4, 64, vec![zeros(4)], false, false),
    );
    let k = "atomic_vs_load";
    let f = check(k, 2, 64, vec![zeros(4), zeros(256)], false, false);
    let races = global_races(&f);
    let (add, load) = (
        line(k, "atomicAdd(counter, 1)"),
        line(k, "out[threadIdx.x] = *counter"),
    );
    assert!(
        races.iter().any(|r| r.severity == Severity::Error
            && r.lines == vec![add, load]
            && r.message.starts_with("ATOMIC-READ")),
        "{}",
        show(&f)
    );
}

#[test]
fn every_thread_writing_one_value_is_a_same_value_write_off_by_default() {
    let f = check("same_value", 2, 64, vec![zeros(4)], false, false);
    assert!(f.is_empty(), "{}", show(&f));
    let f = check("same_value", 2, 64, vec![zeros(4)], false, true);
    assert!(!f.is_empty());
    assert!(
        f.iter()
            .all(|f| f.kind == FindingKind::SameValueWrite && f.severity == Severity::Warning),
        "{}",
        show(&f)
    );
    assert!(f.iter().any(|f| f.message.contains("global")), "{}", show(&f));
}

#[test]
fn a_grid_stride_loop_and_bytes_of_shared_words_do_not_race() {
    let n = 1000usize;
    let f = check(
        "grid_stride",
        4,
        64,
        vec![zeros(4 * n), zeros(4 * n), Arg::I32(n as i32)],
        false,
        false,
    );
    assert_no_race("grid_stride", &f);
    let f = check("own_bytes", 4, 64, vec![zeros(256)], false, false);
    assert_no_race("own_bytes", &f);
}

#[test]
fn the_last_block_pattern_with_a_fence_and_a_counter_does_not_race() {
    let f = check(
        "last_block",
        4,
        32,
        vec![zeros(512), zeros(16), zeros(4)],
        false,
        false,
    );
    assert_no_race("last_block", &f);
}

#[test]
fn grid_sync_orders_every_block_of_a_cooperative_launch() {
    let args = || vec![zeros(4 * 256), zeros(4 * 256)];
    assert_no_race("grid_synced", &check("grid_synced", 4, 64, args(), true, false));
    let k = "grid_unsynced";
    let f = check(k, 4, 64, args(), true, false);
    assert!(
        global_races(&f)
            .iter()
            .any(|r| r.severity == Severity::Error && r.message.contains("different blocks")),
        "{}",
        show(&f)
    );
}

#[test]
fn launches_are_ordered_by_the_stream() {
    // partial sums in one launch, read by the next one: two launches on one global space
    let p = program();
    let arch = Arch::parse("sm_90").unwrap();
    let (inp, partial, out) = (0x10_0000u64, 0x20_0000u64, 0x30_0000u64);
    let input: Vec<u8> = (0..1024u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
    let global = Global::new(vec![(inp, input), (partial, vec![0; 16]), (out, vec![0; 4])]);
    let first = Launch::new([4, 1, 1], [256, 1, 1], vec![Arg::U64(inp), Arg::U64(partial)]);
    let second = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::U64(partial), Arg::U64(out), Arg::I32(4)],
    );
    for (kernel, launch) in [("partial_sums", first), ("final_sum", second)] {
        let r = analyze_launch_in(
            &p,
            kernel,
            &launch,
            &global,
            &sections(),
            arch,
            &Widths::ptx_level("PTX-level"),
            &opts(false),
        )
        .unwrap();
        assert_no_race(kernel, &r.hazards.unwrap().findings);
    }
    let mut sum = [0u8; 4];
    global.read_range(out, &mut sum).unwrap();
    assert_eq!(u32::from_le_bytes(sum), (0..1024u32).map(|i| i % 7).sum::<u32>());
}

#[test]
fn global_races_can_be_left_out() {
    let p = program();
    let arch = Arch::parse("sm_90").unwrap();
    let launch = Launch::new([2, 1, 1], [64, 1, 1], vec![zeros(256), zeros(256)]);
    let r = analyze_launch(
        &p,
        "cross_block",
        &launch,
        &sections(),
        arch,
        &Widths::ptx_level("PTX-level"),
        &RunOptions {
            no_global_races: true,
            ..RunOptions::default()
        },
    )
    .unwrap();
    let h = r.hazards.unwrap();
    assert!(h.global_shadow.is_none());
    assert!(h.findings.is_empty(), "{}", show(&h.findings));
}

#[test]
fn a_barrier_that_orders_only_global_accesses_is_needed() {
    let p = program();
    let arch = Arch::parse("sm_90").unwrap();
    let launch = Launch::new([1, 1, 1], [64, 1, 1], vec![zeros(256), zeros(256)]);
    let redundant = |no_global_races: bool| {
        let r = analyze_launch(
            &p,
            "block_sync",
            &launch,
            &sections(),
            arch,
            &Widths::ptx_level("PTX-level"),
            &RunOptions {
                no_global_races,
                ..RunOptions::default()
            },
        )
        .unwrap();
        r.hazards
            .unwrap()
            .findings
            .into_iter()
            .filter(|f| f.kind == FindingKind::RedundantBarrier)
            .collect::<Vec<_>>()
    };
    // shared memory alone sees nothing for the barrier to order
    let shared_only = redundant(true);
    assert_eq!(shared_only.len(), 1, "{}", show(&shared_only));
    assert_eq!(shared_only[0].lines, vec![line("block_sync", "__syncthreads()")]);
    assert!(redundant(false).is_empty());
}
