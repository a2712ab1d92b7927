//! calibration/run/cccl's programs (Thrust and CUB: device_vector algorithms, radix and merge
//! sorts, CUB's device-wide algorithms with decoupled look-back, block- and warp-wide collectives
//! in user kernels), built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what
//! an H200 printed and counted (calibration/run/cccl/h200/, measured by `ncu.sh`): each program
//! prints what the GPU printed; every launch's registers and theoretical occupancy equal the
//! H200's; every launch whose branch, shared-memory or global-memory counters are labelled exact
//! equals the H200's; and at least the launches listed below are labelled exact, so a change that
//! loses them fails. Building the four programs takes most of the time (about 2.5 CPU minutes of
//! nvcc; the runs about 30 s).

mod support;
support::bench_programs!(built "calibration/run/cccl");

// tile_scan's shared counters are counted on the machine code (the raking scan's repeated loads
// that ptxas removed); exact since the flow no longer also follows if-converted bounds checks'
// global loads (`reconcile::hammock_arms`), where it stopped at an address it did not know
program!(cubblock, 4, [4, 4, 4]);
// the look-back kernels (scan, select, onesweep): spin loops, every counter an estimate; the
// histogram sweep's branch counters followed through its alignment test (`ULOP3.LUT UP0`)
program!(cubdev, 22, [16, 20, 16]);
program!(tbasic, 18, [14, 14, 14]);
// the reduce-by-key agent (launch 42) ends in a loop whose exit tests ptxas copies as it unrolls
// it: the early-exit rule (`reconcile::loads_moved_below_exits`, for msquares' sunk load) counts
// the tests' distinct source lines, not the copies, so its shared loads stay matched and exact
program!(tsort, 43, [28, 30, 29]);
