//! calibration/run/bench13's programs (written for this project: build variants and libraries
//! the earlier sets lack: `-G` debug machine code, separate compilation with `-rdc=true` over
//! three `.cu` files, `-maxrregcount=32` spills, the cuRAND device API, Thrust with extended
//! `__device__` lambdas, libcu++ (`cuda::atomic_ref`, `cuda::std::complex`), dynamic shared
//! memory above 48 KB picked by the occupancy API, and `clock64()`/`%globaltimer`-timed code),
//! built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed
//! and counted (calibration/run/bench13/h200/, measured by `ncu.sh` on these binaries): each
//! program prints what the GPU printed; every launch's registers and theoretical occupancy equal
//! the H200's; every launch whose branch, shared-memory or global-memory counters are labelled
//! exact equals the H200's; and at least the launches listed below are labelled exact.
//!
//! Not replayed here (README): `fastm` (built with `-use_fast_math`: `.ftz` on `mul`/`add`/`fma`
//! is not modelled, so subnormal operands give results the H200 flushes to zero, and its blur's
//! shared loads are labelled exact and differ).

mod support;
support::bench_programs!(built "calibration/run/bench13");

// -G: every variable in its own place, calls not inlined (atomicAdd through a generic pointer);
// `numbers` calls functions ptxas kept apart: the flow follows them, but cohorts no convergence
// barrier joins reach its branches apart (the H200's count differs between ncu passes), so its
// branch counters are estimates (labelled exact and 17 % low before the calls were followed)
program!(dbg, 3, [1, 2, 1]);
// three translation units linked (extern __device__ functions and variables): refused before;
// the flow follows the calls into the other units (apply 195,143 and digits 367,638 branch
// targets, as the H200; estimates before)
program!(rdc, 2, [2, 2, 0]);
// matPow's 592-byte stack frame is cudaFuncGetAttributes' localSizeBytes (0 before)
program!(spill, 3, [3, 3, 3]);
program!(mcrand, 5, [4, 5, 4]);
program!(cxxstd, 7, [6, 7, 6]);
// the occupancy API answers 0 blocks for more dynamic shared memory than the kernel opted in to
// (it answered 2, and the program picked 1,024 threads where the H200 picks 512)
program!(bigsmem, 4, [4, 4, 4]);
// a block timed across __syncthreads() reads one clock (its check failed before)
program!(timed, 3, [1, 3, 3]);
// Thrust with extended lambdas (62 launches): the merge sort's 8-byte key loads with one lane of
// each pair active and conflicting keys are attributed in half-warps (calibration/lds64; its
// seven launches were labelled exact and 0.1-0.4 % low before)
program!(thrx, 62, [50, 50, 50]);
