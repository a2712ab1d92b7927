//! A third labelled race battery, `calibration/races/battery2/` (kernels written for this project,
//! shapes neither `race_suite.rs`'s kernels nor `race_battery.rs`'s have): two pointer parameters
//! that alias one buffer at launch, races through struct fields, arrays of structs and unions,
//! doubles and 64-bit atomics overlapping 32-bit accesses, sm_90 vector atomics, `volatile`
//! shared memory between two warps, run-time `tiled_partition` groups, `__syncthreads_count`/`_or`
//! as the barriers of loops, local arrays and registers only, a barrier missing in one branch of
//! a block-uniform condition, races and divergence only in the last partial block, 2-D and 3-D
//! blocks whose warps span rows or planes, `goto` and data-dependent `do`/`while` around barriers,
//! `__noinline__`, recursive and lambda helpers writing shared memory, a generic pointer chosen at
//! run time, spin locks with a read outside the lock, races that need a grid of two rows,
//! per-block histograms merged with a plain `+=`, `__reduce_add_sync`/`__match_any_sync`/
//! `cg::reduce`, and a device-side `memset` against another block's reads.
//!
//! Each kernel's `// expect:` line is its label, `// launch:` its launch, and the lines ending in
//! `// <-` those the finding of that kind must name, exactly (the harness: `labelled/mod.rs`).
//! Labels were derived by hand from the CUDA and PTX memory models;
//! `calibration/races/battery2/README.md` has the table.

mod labelled;
mod support;

#[test]
fn check_reports_each_battery2_kernel_as_labelled_at_its_lines() {
    let o = labelled::run_battery(&labelled::folder("battery2"), true);
    assert!(o.wrong.is_empty(), "{}", o.wrong.join("\n"));
    // the battery as written: 93 kernels, 49 race-free
    assert_eq!(
        o.counts(),
        [
            ("divergent_barrier", 6),
            ("global_race", 19),
            ("none", 49),
            ("race", 18),
            ("same_value_write", 1)
        ]
    );
}

/// A device-side `memset` becomes a byte loop the compiler gives line 0 (`.loc 1 0 9`): the race
/// names the line of the call before it, and says the compiler gave the code no line of its own.
#[test]
fn a_race_in_code_at_line_0_names_the_line_before_it() {
    let f = labelled::findings_of(&labelled::folder("battery2"), "gr_memset_global_vs_read.cu");
    let r: Vec<_> = f.iter().filter(|x| x["kind"] == "global_race").collect();
    assert!(!r.is_empty(), "{f:#?}");
    for x in r {
        assert_eq!(x["lines"].to_string(), "[7,9]", "{x:#}");
        let m = x["message"].as_str().unwrap();
        assert!(
            m.contains(
                "gr_memset_global_vs_read.cu:7 (code the compiler gave no line of its own, after this line)"
            ),
            "{m}"
        );
        assert!(!m.contains(".cu:0"), "{m}");
    }
}

/// Two warps' `volatile` accesses are no data race with or without a barrier between them (both
/// strong), but the barrier decides which values the reads see: it is not offered as removable.
#[test]
fn a_barrier_ordering_volatile_accesses_of_two_warps_is_not_removable() {
    for name in [
        "gn_volatile_tail_barrier_then_warp.cu",
        "gn_volatile_tail_two_warps_strong.cu",
    ] {
        let f = labelled::findings_of(&labelled::folder("battery2"), name);
        assert!(
            f.iter().all(|x| x["kind"] != "redundant_barrier"),
            "{name}: {f:#?}"
        );
    }
}

/// Each thread reads its neighbours, a barrier, re-reads its own element and writes it: the
/// barrier orders the neighbours' reads before the write, though the writer's own re-read came
/// between them, so it is not offered as removable.
#[test]
fn a_barrier_before_a_re_read_and_write_is_not_removable() {
    let f = labelled::findings_of(
        &labelled::folder("battery2"),
        "gn_syncthreads_or_converge_loop.cu",
    );
    assert!(f.iter().all(|x| x["kind"] != "redundant_barrier"), "{f:#?}");
}

/// The lines of the `redundant_barrier` findings of a battery2 kernel.
fn redundant_lines(name: &str) -> Vec<String> {
    let f = labelled::findings_of(&labelled::folder("battery2"), name);
    f.iter()
        .filter(|x| x["kind"] == "redundant_barrier")
        .map(|x| x["lines"].to_string())
        .collect()
}

/// Thread 0 initialises a shared lock word and counter, a barrier, then lane 0 of each warp takes
/// the lock by `atomicCAS`, adds to the counter and gives the lock back, fenced. In the schedule
/// emulated warp 0 takes the lock first and its release hands both writes on, but another warp
/// may reach its `atomicCAS` first: only the barrier orders the lock word's initialisation before
/// it. Neither barrier is removable.
#[test]
fn a_barrier_after_a_locks_initialisation_is_not_removable() {
    assert_eq!(
        redundant_lines("gn_shared_cas_lock_fenced.cu"),
        Vec::<String>::new()
    );
}

/// Its look-alike: thread 0 initialises the counter, the barrier, adds to it and publishes it by
/// a flag that the others wait for (an atomic read) before reading the counter. They wait for a
/// value written after both writes, so the barrier orders nothing the flag does not: it is
/// offered as removable, and nothing else is.
#[test]
fn a_barrier_before_a_flag_that_publishes_the_initialised_value_is_removable() {
    assert_eq!(
        redundant_lines("gn_flag_published_init_removable.cu"),
        vec!["[14]".to_string()]
    );
}

/// The global-memory twin of `gn_shared_cas_lock_fenced`: thread 0 stores 0 to a lock word in
/// global memory, a barrier, then lane 0 of each warp takes the lock by `atomicCAS` and gives it
/// back by `atomicExch`, fenced. Warp 0 takes it first in the schedule emulated, and the others'
/// `atomicCAS` read what its release gave back; in another schedule one of them comes first, and
/// only the barrier orders the store before it. No race, and neither barrier is removable.
#[test]
fn a_barrier_after_a_global_locks_initialisation_is_not_removable() {
    let f = labelled::findings_of(&labelled::folder("battery2"), "gn_global_lock_init_cas.cu");
    let kinds: Vec<&str> = f.iter().filter_map(|x| x["kind"].as_str()).collect();
    assert!(
        !kinds
            .iter()
            .any(|k| ["global_race", "race", "redundant_barrier"].contains(k)),
        "{f:#?}"
    );
    // one lock per block, each initialised by its block's thread 0 (four blocks)
    assert_eq!(
        redundant_lines("gn_global_lock_array_per_block.cu"),
        Vec::<String>::new()
    );
}

/// Without that barrier the store and another warp's `atomicCAS` race, though in the schedule
/// emulated the `atomicCAS` reads what thread 0's fenced `atomicExch` gave back: the race names
/// the store (line 8) first and the `atomicCAS` (line 10).
#[test]
fn a_global_locks_initialisation_without_a_barrier_races_with_the_others_cas() {
    let f = labelled::findings_of(&labelled::folder("battery2"), "gr_global_lock_init_no_barrier.cu");
    let r: Vec<_> = f.iter().filter(|x| x["kind"] == "global_race").collect();
    assert_eq!(r.len(), 1, "{f:#?}");
    assert_eq!(r[0]["lines"].to_string(), "[8,10]", "{:#}", r[0]);
    let m = r[0]["message"].as_str().unwrap();
    assert!(m.starts_with("WRITE-ATOMIC race on global"), "{m}");
}

/// The global look-alike of `gn_flag_published_init_removable`: the counter thread 0 initialised
/// and updated is published by a flag the readers wait for; their plain reads are ordered after
/// both stores by the flag, so the barrier after the initialisation (line 12) is removable.
#[test]
fn a_barrier_before_a_flag_that_publishes_a_global_initialised_value_is_removable() {
    assert_eq!(
        redundant_lines("gn_global_flag_published_init_removable.cu"),
        vec!["[12]".to_string()]
    );
}
