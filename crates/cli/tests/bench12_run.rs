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
