//! calibration/run/bench5's programs (written for this project in modern CUDA C++ shapes the
//! earlier sets lack: cooperative-groups tiles, scans and coalesced groups; `__match_*_sync` and
//! `__reduce_*_sync` under partial masks; half and bfloat16 arithmetic; integer SIMD and bit
//! intrinsics; `cuda::atomic_ref`, 64-bit and wrapping atomics; `cuda::barrier`,
//! `cuda::pipeline` and cache-hint loads and stores; virtual functions, lambdas,
//! `__launch_bounds__` and `cudaLaunchKernelEx`; recursion), built with the wheels' nvcc
//! (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench5/h200/, measured by `ncu.sh`): each program prints what the GPU printed;
//! every launch's registers and theoretical occupancy equal the H200's; every launch whose
//! branch, shared-memory or global-memory counters are labelled exact equals the H200's; and at
//! least the launches listed below are labelled exact, so a change that loses them fails.

mod support;
support::bench_programs!(built "calibration/run/bench5");

// `compact`'s machine code branches on the warps' bases in shared memory (counted on the PTX,
// equal); `aggregate`'s stores go to slots a coalesced group's atomic handed out (equal)
program!(cgtile, 4, [3, 4, 3]);
// `reduxPartial`'s branches on `__activemask()`'s lanes are counted on the PTX (equal)
program!(warpint, 4, [3, 4, 4]);
// `h2exp`'s and `hrcp`'s fix-ups compare packed halves (`set.eq.f16x2`); the results' bits equal
// the H200's (h200/halfbf.bin)
program!(halfbf, 2, [2, 2, 2]);
// `dp4a`, `dp2a`, `vabsdiff4`
program!(bits, 2, [2, 2, 2]);
// `wide`'s atomicCAS loop for a double maximum splits each warp and what follows runs once per
// group of lanes that left together (global loads 4472 and 2564 requests in two H200 runs, 1256
// counted): branch and global counters are estimates; `wideSync` reconverges with __syncwarp
// first: its global counters are exact and equal; `lastBlock` waits on an acq_rel ticket and sums
// the partials with `ld.acquire` in a loop the grid size counts: no spin loop (no branch of the
// loop depends on the loads: `reconcile::strong_load_steers`), its branch and global counters
// exact and equal (before: estimates). Since the early-join rule (divergence::early_joins)
// `lastBlock`'s shared counters are estimates (the same values, equal to the H200's): why the
// machine-code flow gives them up is still to be seen
program!(atom, 4, [2, 3, 3]);
// `barrierStencil`'s and `pipeSum`'s machine code branches on the barrier's and the pipeline's
// state in shared memory: branch counters are estimates; the async copies' global counters too
program!(pipe, 4, [2, 4, 2]);
program!(cxx, 3, [3, 3, 3]);

// recursion: each recursive function's out-of-line body, a call saving its registers and local
// slots per activation; prints PASS and the H200's sum. Its lanes recurse to different depths,
// so they restore different convergence barriers after the machine code's calls (`BMOV`): the
// flow stops there and branch and global counters are estimates (calibration/recursion/)
program!(recurse, 1, [0, 1, 0]);
