//! calibration/run/bench3's programs (written for this project in the shapes of classic GPU
//! benchmarks warpscope was not built around: Gaussian elimination in two kernels per step, a
//! dynamic-programming row sweep, a neural-net layer forward and backward, anisotropic diffusion,
//! a 3-D stencil walking z, neighbour-box particle forces, an unstructured-mesh Euler step,
//! nearest neighbours, a facility-location gain) under `warpscope run`, against what an H200
//! printed and counted (calibration/run/bench3/h200/, measured by `ncu.sh`): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's; every
//! launch whose branch, shared-memory or global-memory counters are labelled exact equals the
//! H200's branch targets and divergent targets, shared instructions and (instruction-attributed)
//! wavefronts, global requests and sectors; and at least the launches listed below are labelled
//! exact, so a change that loses them fails.

mod support;
support::bench_programs!(source "calibration/run/bench3");

program!(gauss, "gauss", [], 510, [510, 510, 510]);
program!(pathfind, "pathfind", [], 5, [5, 5, 5]);
program!(backprop, "backprop", [], 6, [6, 6, 6]);
program!(srad, "srad", [], 10, [10, 10, 10]);
program!(hotspot3d, "hotspot3d", [], 5, [5, 5, 5]);
// the loop ptxas unrolls 6 ways (the PTX 2): followed on the machine code; its shared loads are
// merged differently line by line: counted on the machine code (before: an estimate)
program!(lavamd, "lavamd", [], 1, [1, 1, 1]);
program!(cfd, "cfd", [], 14, [14, 14, 14]);
program!(nn, "nn", [], 2, [2, 2, 2]);
// `gain`'s last branch reads a word of shared memory other warps' integer atomics wrote in the
// phase before the barrier: the machine-code flow takes the word's value from the emulation
// (before: branch counters estimates, equal to the H200 in 6 of its 10 launches)
program!(sclust, "sclust", [], 20, [20, 20, 20]);
