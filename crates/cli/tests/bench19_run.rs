//! calibration/run/bench19's programs (written for this project, in shapes the earlier sets lack:
//! LEB128 variable-length integers decoded by block scans and a gather; multi-precision products
//! a thread a product and 1024-bit additions a warp a number with carries resolved by ballots; the
//! k smallest of each row by a binary heap in local arrays; bit-packed cellular automata by funnel
//! shifts, a launch a generation and in registers by shuffles; an int8 GEMM by `__dp4a`; cuckoo
//! hashing by `atomicExch` eviction chains; two of them also built with `-G`), built with the
//! wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench19/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's; every
//! launch whose counters are labelled exact equals the H200's; and at least the launches listed
//! below are labelled exact.

// `varint_G`: the binary's name, a debug (-G) build
#![allow(non_snake_case)]

mod support;
support::bench_programs!(built "calibration/run/bench19");

program!(varint, 8, [8, 8, 8]);
program!(bignum, 2, [2, 2, 2]);
program!(heaptopk, 2, [2, 2, 2]);
program!(rule30, 25, [25, 25, 25]);
program!(i8gemm, 2, [2, 2, 2]);
// cuckoo: `insert` branches on what its `atomicExch` handed back (an eviction chain the compiler
// unrolled into straight code), so its branch counters depend on the GPU's order of the atomics
// (3,925 / 3,925 / 3,917 / 3,890 targets in four H200 runs) and are estimates; `lookup` reads
// the tables the exchanges left (order-dependent input): estimates in every group. `insert`'s
// shared counters (none) are exact.
program!(cuckoo, 2, [0, 1, 0]);
// a debug build: the branches of calls ptxas kept apart are not followed (estimates), the global
// accesses are the PTX's (estimates); `sum64` is followed in full.
program!(varint_G, 8, [2, 8, 0]);
// a debug build whose `siftDown` loop is left by a `break` through branches of its own: the lanes
// leaving on different iterations may run them together on the GPU (32 and 70 targets fewer than
// the flow, each group apart), so the branch counters are estimates; the global accesses are the
// PTX's (estimates).
program!(heaptopk_G, 2, [0, 2, 0]);
