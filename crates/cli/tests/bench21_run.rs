//! calibration/run/bench21's programs (written for this project, in today's libcu++ and
//! cooperative-groups shapes the earlier sets lack: a cuda::pipeline partitioned into producer
//! and consumer warps, cuda::barrier arrive/wait tokens over block-wide and bulk
//! cuda::memcpy_async; cuda::atomic_ref wait/notify_all and a cuda::std::atomic ticket with
//! memory orders; fp8 e4m3/e5m2 quantization with half2 and bfloat162 math; mdspan, span and
//! complex; warp-level cg::memcpy_async with wait_prior, tile scans and partitions; `__device__`
//! lambdas through kernel templates with printf and assert; locks with `__nanosleep` back-off),
//! built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed
//! and counted (calibration/run/bench21/h200/, measured by `ncu.sh` on these binaries): each
//! program prints what the GPU printed; every launch's registers and theoretical occupancy equal
//! the H200's; every launch whose counters are labelled exact equals the H200's; and at least the
//! launches listed below are labelled exact.

mod support;
support::bench_programs!(built "calibration/run/bench21");

// every wait of the pipeline and the barriers is an mbarrier try-wait loop on a phase that warps'
// arrivals complete (its trip count is the GPU's timing); roles' shared counters, split's and
// bulk's global ones are exact
program!(stages, 3, [0, 2, 2]);
// wait() spins on the shared flag, lastblock's float maximum retries a compare-exchange and its
// ticket is an atomic's result: branch and global counters are estimates
program!(waitnote, 3, [0, 2, 0]);
// the block's absolute maximum folds through `VIMNMX3` (three-way max) before the scale's branch
program!(fp8q, 2, [2, 2, 2]);
program!(mdsp, 3, [3, 3, 3]);
// the labeled partition's key comes from shared memory that cg::memcpy_async filled (values
// the flow does not know): the branch and global counters are the PTX's
program!(cgasync, 1, [0, 1, 0]);
// talk's printf stores are the H100's rule (an H200 counts 3 fewer a warp-level call): estimates
program!(lambdas, 6, [6, 6, 5]);
// spin locks and a ticket lock: every count is the GPU's timing
program!(backoff, 2, [0, 1, 0]);
