//! The labelled race suite `calibration/races/kernels/` (kernels written for this project, each
//! marked with the kind `check` must report and the launch to check it with): global-memory races
//! between threads, warps and blocks (neighbour shifts, lost updates, in-place reversal/scan/
//! transpose, flags without fences or with block-scope fences, atomics against plain accesses,
//! overlapping bytes, a racing store in a called function), shared-memory races, divergent barriers
//! (a thread branch, a per-thread trip count, `grid.sync()` in a branch of a cooperative launch),
//! a same-value write under `--report-same-value-writes`, distributed shared memory of thread-block
//! clusters (races across blocks, a `.relaxed` cluster arrival, an early mbarrier arrival, a
//! relaxed flag, a block's exit before another's remote read, a flag in global memory with no
//! fence, a global write between a cluster arrival and its wait, `.cluster` scope across clusters),
//! a write racing with the second of three unordered reads, shuffles and votes that do not order
//! the accesses, and race-free controls (own elements, grid-stride loops, atomics only, barriers,
//! fences, release/acquire, acq_rel RMW flags, the last-block ticket, a spin lock, `grid.sync()`,
//! cluster barriers split or whole, mbarrier hand-off, release/acquire flags and atomics across a
//! cluster, flags in global memory ordering distributed shared memory, the cluster barrier and
//! `.cluster` release/acquire ordering global memory, shuffles and votes as warp synchronisation,
//! a TMA multicast read after the mbarrier wait; racy: the same read before it), a shared write
//! racing with the third and later reads of a byte (other warps' reads while the writer's warp
//! waits; race-free twins whose stray reads a barrier orders), three read instructions of three
//! warps each racing with one write, and `__syncwarp(mask)` / `__shfl_sync(mask, ...)` with a
//! partial mask that leaves the reading lane out, in shared and global memory (race-free twins:
//! the mask names it), `__syncwarp()` in diverged branches (one synchronisation of both) and
//! after lanes exited, more than 255 cluster barrier phases, races through an atomic's return
//! value, a race only in a later loop iteration, 2-D and 3-D blocks, overlapping dynamic shared arrays,
//! two lanes of one store writing one word, a grid-stride loop striding by the
//! block, a volatile flag between warps with and without fences, and barrier divergence by
//! `continue`, an early return, two barriers in an if/else and a data-dependent condition; flags in
//! shared memory between the warps of a block (`volatile` with and without fences, release and
//! acquire operations, `atomicExch`, a flag in global memory, a ticket lock, a missing acquire
//! fence, strong against strong and strong against plain accesses) and `__syncwarp()` in every
//! branch of a three- and four-way else-if chain, and with one branch missing it; kernels of
//! unusual shapes (structs, `char`/`short`/`bool`/`__half` parameters, two parameters aliasing
//! one buffer, 3-D grids, `extern __shared__` arrays of several types, templates, `printf`,
//! `assert`, `__constant__`/`__device__`/`__managed__` variables, vector stores that overlap,
//! device `memcpy`/`memset`, cooperative-groups tiles and grid syncs, atomics of every type and
//! compare-and-swap loops, `__threadfence_system()`, partial shuffle masks, whole programs with
//! `main`, races that only some launches have); counted named barriers (`bar.sync id, count`,
//! `bar.arrive`, `bar.red`) that order only the warps taking part, producer/consumer pipelines
//! on them, chains of them, and barrier-count mismatches; dynamic parallelism (a child grid
//! against its parent's accesses after the launch, sibling children, tail launches); release/
//! acquire carried on through a named barrier of part of a block and through `__syncwarp()`;
//! spin locks by `atomicExch` with and without fences, relaxed atomics against plain and strong
//! accesses, read-modify-writes across block edges, races in a loop's last iteration or only for
//! some index bounds, struct copies, sub-word accesses of one shared word, barriers under
//! conditions every thread takes alike, phases of cooperative launches, shared arrays reused after
//! a barrier, dynamic shared memory and warp-synchronous broadcasts; lock-free stacks by
//! `atomicCAS`, block-scoped release/acquire across blocks, `grid.sync()` loops, partial-mask
//! shuffles, indices from local memory, atomics of two sizes on one word, packed bytes of two
//! blocks, `__ldg` of another block's data, double buffering, a hand-made grid barrier and two
//! acquirers of one release in a block; atomic return values as indices, libcu++ atomics with
//! memory orders, `cuda::barrier` and `cuda::pipeline` (mbarrier phases), cooperative-groups
//! `memcpy_async`, `cp.async` with and without `wait_group`, `ldmatrix`/`stmatrix`,
//! `__syncthreads_count`/`_or` as the only barriers, and barriers under a parameter, a `break`,
//! a `return` and a `switch`. Expected
//! kinds are the kernels' own labels, derived by hand from the CUDA memory model;
//! `calibration/races/run.sh` prints the same table (the harness: `labelled/mod.rs`).

use std::path::PathBuf;

mod labelled;
mod support;

fn kernels() -> PathBuf {
    labelled::folder("kernels")
}

/// Every finding of `check` on kernel `name` with the launch its `// launch:` line gives.
fn findings(name: &str) -> Vec<serde_json::Value> {
    labelled::findings_of(&kernels(), name)
}

#[test]
fn check_reports_each_labelled_kernel_as_labelled() {
    let o = labelled::run_battery(&kernels(), false);
    assert!(o.wrong.is_empty(), "{}", o.wrong.join("\n"));
    // the suite as written: 181 kernels with a finding to report, 165 race-free
    let clean = o.counts.get("none").copied().unwrap_or(0);
    let races: usize = o.counts.values().sum::<usize>() - clean;
    assert_eq!((races, clean), (181, 165), "kernels with a finding, without");
}

#[test]
fn each_of_three_reads_of_other_warps_pairs_with_the_write() {
    // warps 0, 1 and 2 read s[0] at lines 13, 14 and 15 (three instructions), thread 96 writes it
    // at line 16 with no barrier between: each read instruction races with the write
    let f = findings("sr_three_warps_read.cu");
    let mut pairs: Vec<String> = f
        .iter()
        .filter(|f| f["kind"] == "race")
        .map(|f| f["lines"].to_string())
        .collect();
    pairs.sort();
    pairs.dedup();
    for want in ["[13,16]", "[14,16]", "[15,16]"] {
        assert!(pairs.iter().any(|p| p == want), "{want} missing: {pairs:?}");
    }
}

#[test]
fn cluster_findings_name_the_owner_block_its_rank_and_both_lines() {
    // rank 1 writes rank 0's array (line 14) while rank 0 initialises it (line 10) and reads it
    // (line 16): two instruction pairs, each 64 threads x 4 bytes
    let f = findings("cl_remote_write.cu");
    let races: Vec<_> = f.iter().filter(|f| f["kind"] == "race").collect();
    let mut lines: Vec<String> = races.iter().map(|f| f["lines"].to_string()).collect();
    lines.sort();
    assert_eq!(lines, ["[10,14]", "[16,14]"], "{f:#?}");
    for r in &races {
        let m = r["message"].as_str().unwrap();
        assert!(
            m.contains(
                "race on distributed shared memory (the shared memory of block (0,0,0), rank 0, offset 0x0)"
            ) && m.contains("block (1,0,0) thread (0,0,0) at cl_remote_write.cu:14"),
            "{m}"
        );
        assert_eq!(r["count"], 256, "{m}");
        assert_eq!(r["severity"], "error");
    }
    // each block reads the other's array at line 14 with no cluster barrier after it: one finding,
    // 64 reads of each block
    let f = findings("cl_exit_early.cu");
    let exits: Vec<_> = f
        .iter()
        .filter(|f| f["kind"] == "exit_before_remote_access")
        .collect();
    assert_eq!(exits.len(), 1, "{f:#?}");
    assert_eq!(exits[0]["lines"].to_string(), "[14]");
    assert_eq!(exits[0]["count"], 128);
    let m = exits[0]["message"].as_str().unwrap();
    assert!(
        m.contains("reads the shared memory of block (") && m.contains("end the kernel with cluster.sync()"),
        "{m}"
    );
}

#[test]
fn a_child_grid_races_with_its_parents_later_accesses_and_the_finding_names_the_launch() {
    // the parent reads a[] (line 10) after thread 0 launched a child (line 8) that writes it
    // (line 6): one pair, 32 lanes
    let f = findings("gr_cdp_parent_reads_child.cu");
    let races: Vec<_> = f.iter().filter(|f| f["kind"] == "global_race").collect();
    assert_eq!(races.len(), 1, "{f:#?}");
    assert_eq!(races[0]["lines"].to_string(), "[10,6]");
    assert_eq!(races[0]["count"], 32);
    let m = races[0]["message"].as_str().unwrap();
    assert!(
        m.starts_with("READ-WRITE global race on byte 0 of argument 0 `a`")
            && m.contains("the parent grid block (0,0,0) thread (0,0,0) at gr_cdp_parent_reads_child.cu:10")
            && m.contains("launched at gr_cdp_parent_reads_child.cu:8 by block (0,0,0) thread (0,0,0)")
            && m.contains("tail launch"),
        "{m}"
    );
    // the barrier before the launch orders the block's writes before the child's reads: needed
    let f = findings("gn_cdp_child_reads.cu");
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn a_barrier_count_mismatch_names_both_counts() {
    let f = findings("dv_named_barrier_count_mismatch.cu");
    let d: Vec<_> = f.iter().filter(|f| f["kind"] == "divergent_barrier").collect();
    assert_eq!(d.len(), 1, "{f:#?}");
    assert_eq!(d[0]["severity"], "error");
    let m = d[0]["message"].as_str().unwrap();
    assert!(
        m.contains("warp 1 of block (0,0,0) arrived giving a thread count of 64")
            && m.contains("gave a thread count of 96"),
        "{m}"
    );
}

/// The `__syncthreads()` between thread 0's `init(&bar, ...)` of a `cuda::barrier` and the
/// other threads' arrivals on it is needed (without it they may arrive on a barrier not yet
/// initialised), so it is not offered as redundant.
#[test]
fn the_barrier_after_an_mbarrier_init_is_not_redundant() {
    let f = findings("gn_cuda_barrier_block.cu");
    assert!(f.iter().all(|x| x["kind"] != "redundant_barrier"), "{f:#?}");
}
