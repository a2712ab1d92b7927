//! calibration/run/bench7's programs (written for this project in the shapes of NVIDIA's CUDA
//! samples the earlier sets lack: reductions from interleaved addressing to a single pass whose
//! last block, by an atomicInc ticket after a __threadfence, finishes the sum; 64-bin histograms
//! of per-thread byte counters and 256-bin ones of per-warp shared atomics; bitonic sorting with
//! global and shared merge steps, odd-even merge sort and a block radix sort by
//! __syncthreads_count; shuffle scans, a uint4 scan and a summed-area table; a separable
//! convolution with __constant__ taps and an 8x8 DCT; Black-Scholes, a binomial tree and a Monte
//! Carlo pricer; a fast Walsh transform's dyadic convolution; interval Newton root finding by
//! recursion with directed rounding; warp-aggregated atomics, binary and labeled partitions,
//! __match_any_sync with __reduce_add_sync, votes and cg::memcpy_async), built with the wheels'
//! nvcc (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench7/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's;
//! every launch whose branch, shared-memory or global-memory counters are labelled exact equals
//! the H200's; and at least the launches listed below are labelled exact, so a change that loses
//! them fails.

mod support;
support::bench_programs!(built "calibration/run/bench7");

// interleaved, strided (bank conflicts), sequential, first-add, unrolled and single-pass sums
program!(reduce, 8, [8, 8, 8]);
// per-thread byte counters (swizzled) and per-warp shared atomics, merged by a reduction
program!(histo, 6, [6, 6, 6]);
// the bitonic sorts' shared steps: a line's shared loads do not match the machine code's, and
// the machine code's guarded stores wait on the keys loaded after a barrier: counted by the flow
// on the emulation's shared record (the PTX's count: 1024 loads, one a warp, above the H200's)
program!(sort, 30, [30, 30, 30]);
program!(scan, 8, [8, 8, 8]);
program!(conv, 3, [3, 3, 3]);
program!(options, 3, [3, 3, 3]);
program!(walsh, 16, [16, 16, 16]);
// recursion: the machine code's convergence barriers (BREAK, BMOV) on values the lanes disagree
// on are not followed: branch and global counters are estimates
program!(interval, 2, [0, 2, 0]);
// `filterK` stores at slots atomics hand out (its global store sectors: an estimate); the later
// launches read `in`, which it only reads, and add to `count` only by integer atomics: they stay
// exact (before: every later launch was labelled an estimate, order-dependent input); `stagedK`
// copies by cp.async (its reads cannot be told from the PTX): estimates
program!(coop, 5, [4, 4, 3]);
