//! calibration/run/bench12's programs (written for this project in shapes the earlier sets lack:
//! float and double math with slow-path divisions and intrinsics, half2 and bfloat162
//! arithmetic, 64-bit integer code (Miller-Rabin, bit tricks), shared-memory sorting networks, a
//! persistent-thread work queue with an intra-warp spin lock, 16-byte vector loads with cache
//! hints, warp match/reduce/vote primitives, and a four-stream pipeline with events), built with
//! the wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench12/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's;
//! every launch whose branch, shared-memory or global-memory counters are labelled exact equals
//! the H200's; and at least the launches listed below are labelled exact.
//!
//! Not replayed here (README): `texsurf` (its linearly filtered, wrapped texture reads differ in
//! their last bits from the H200's).

mod support;
support::bench_programs!(built "calibration/run/bench12");

program!(fmath, 3, [3, 3, 3]);
// softmaxHalf: the machine-code flow stops at a float it does not compute (estimates, equal)
program!(half2, 4, [3, 4, 3]);
// primes: 64-bit remainders by constants now follow their carries; the flow still stops in
// the witness loop, at the carry out of an `IMAD.HI.U32` (estimates)
program!(bits64, 3, [2, 3, 2]);
program!(sortnet, 9, [9, 9, 9]);
// the queue and the lock are timed by the GPU: branch and global counters are estimates; the
// lanes of one warp taking the lock in turn used to spin until the instruction limit
program!(workq, 1, [0, 1, 0]);
program!(soavec, 7, [7, 7, 7]);
program!(warpvote, 6, [6, 6, 6]);
program!(pipeline, 25, [25, 25, 25]);
// tileSums<16/8/4>: ptxas's `BRA.DIV` before the tiles' votes is taken (the lanes whose guard
// holds are not the mask's lanes, calibration/bradiv/): followed on the machine code, exact;
// gridScan: a grid barrier
program!(cgtiles, 6, [5, 6, 4]);

/// texsurf's `blur` reads a pitched `uchar4` texture as normalised floats and branches on them:
/// the machine-code flow now samples the texture (`TEX` through an object in a uniform
/// register) as the emulation does, so its branch counters are followed, labelled exact and
/// equal to the H200's (3,120 targets, 0 divergent; they were an estimate of 0 before, the flow
/// stopping at "a texture read's float"). The program is not replayed whole (its `rotate`
/// checksum differs in last bits), so this checks its launches' labels against the H200's
/// table: every group labelled exact equals it, and all five launches' branch counters are.
#[test]
fn texsurf_blur_branches_on_texels_the_flow_samples() {
    let bin = support::built("calibration/run/bench12").join("texsurf");
    let ran = support::run_exported("texsurf", bin.to_str().unwrap());
    let ncu = support::read_ncu_csv(&support::repo().join("calibration/run/bench12/h200/texsurf.ncu.csv"));
    let launches = ran.export["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 5, "{}", ran.said());
    for l in launches {
        let id = l["id"].as_u64().unwrap();
        let m = &l["metrics"];
        let (name, hw) = &ncu[&id];
        assert_eq!(
            support::kernel_stem(l["kernel"].as_str().unwrap()),
            support::kernel_stem(name)
        );
        assert_eq!(m["warpscope__branch_counters_exact"], 1.0, "launch {id} ({name})");
        for (flag, keys) in support::GROUPS {
            if m[flag] == 1.0 {
                for k in keys.iter() {
                    assert_eq!(
                        m[*k].as_f64().unwrap(),
                        hw[*k],
                        "launch {id} ({name}): {k} labelled exact"
                    );
                }
            }
        }
    }
    let blur = &launches[1]["metrics"];
    assert_eq!(blur["smsp__sass_branch_targets.sum"], 3120.0);
    assert_eq!(blur["smsp__sass_branch_targets_threads_divergent.sum"], 0.0);
}
