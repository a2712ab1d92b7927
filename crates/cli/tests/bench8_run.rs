//! calibration/run/bench8's programs (written for this project in Rodinia- and book-like shapes
//! the earlier sets lack: k-means with centroids in __constant__ memory and shared integer
//! atomics; a B+tree walked by a block of 32 threads a query, the next node published through
//! shared memory, and range counts along sibling leaves; LU decomposition in 16x16 shared tiles
//! (diagonal, perimeter and internal kernels); a double-precision particle filter (Box-Muller by
//! `log`/`sqrt`/`cos`/`sin`, `exp` weights, `round`, a CDF searched linearly); a bytecode
//! interpreter (a dense `switch` made a jump table, a local stack, a do-while on a flag) and a
//! sparse `switch`; median filters over local arrays sorted with run-time indices, unions, a
//! structure of arrays against an array of structures and 64-bit indexing; Mandelbrot and Julia
//! sets and Kahan-summed double series; matrix products through `__ldg`, 16x16 and 32x8 shared
//! tiles, double tiles and batched 4x4 products; warp softmax, layer normalisation, log-sum-exp
//! and segmented sums by templated shuffles), built with the wheels' nvcc (`build.sh`), under
//! `warpscope run`, against what an H200 printed and counted (calibration/run/bench8/h200/,
//! measured by `ncu.sh` on these binaries): each program prints what the GPU printed; every
//! launch's registers and theoretical occupancy equal the H200's; every launch whose branch,
//! shared-memory or global-memory counters are labelled exact equals the H200's; and at least the
//! launches listed below are labelled exact, so a change that loses them fails.

mod support;
support::bench_programs!(built "calibration/run/bench8");

program!(kmeans, 29, [29, 29, 29]);
program!(btree, 2, [2, 2, 2]);
program!(lud, 22, [22, 22, 22]);
// `weighK`'s `round(x)` is `DADD.RZ` then `F2I.TRUNC`, its pixel `I2F.F64.U16`, its division by
// 50 ptxas's double-division test: followed on the launch's values (before: the flow stopped
// there, branch and global counters estimates)
program!(pfilter, 25, [25, 25, 25]);
// the interpreter's `go` flag lives in a register's low byte (`PRMT R13, R12, 0x7610, R13`, the
// high bytes never written); the jump target `t = code[pc++]` is loaded by `@!P0 LDG` only in
// the lanes that jump (before: branch counters an estimate, global loads labelled exact and
// wrong, 448484 requests against the H200's 414734)
program!(bytevm, 2, [2, 2, 2]);
program!(median, 5, [5, 5, 5]);
program!(mandel, 4, [4, 4, 4]);
program!(mmul, 5, [5, 5, 5]);
program!(softmax, 5, [5, 5, 5]);
