//! calibration/run/bench9's programs (written for this project in shapes the earlier sets lack:
//! Floyd-Warshall by a launch per pivot and blocked in 32x32 shared tiles; an LSD radix sort by
//! block-local one-bit splits (ballot and popc scans), a count table scan and a scatter; Jacobi
//! with a division by the diagonal and red-black Gauss-Seidel with a coefficient per cell; the
//! game of life as bytes in a shared tile with a halo and as bits by full adders; hash-table
//! lookups by linear and quadratic probing and a Bloom filter; an all-pairs N-body step in
//! `float4` shared tiles with `rsqrtf`; a merge sort by merge path after an odd-even transposition
//! sort; connected-component labelling by label propagation; k nearest neighbours in a local
//! array and in registers; a summed-area table by warp scans and box filters over it), built with
//! the wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench9/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's;
//! every launch whose branch, shared-memory or global-memory counters are labelled exact equals
//! the H200's; and at least the launches listed below are labelled exact, so a change that loses
//! them fails.

mod support;
support::bench_programs!(built "calibration/run/bench9");

program!(fwarshall, 60, [60, 60, 60]);
// `localSort`'s `if (t == 0 || dig[t - 1] != d) starts[...] = t;`: ptxas joins the lanes at the
// store (`BREAK B0` for those that skip it), so it runs once a warp where a join after it runs it
// once a side (before: branch, shared and global counters labelled exact and wrong, 1088 store
// requests against the H200's 1024)
program!(radix, 24, [24, 24, 24]);
program!(jacobi, 74, [74, 74, 74]);
program!(life, 48, [48, 48, 48]);
// `hashq`'s `lookupLinear` gains exact global counters (the first-probe hits wait at the loop's
// join and load their value with the probing lanes: 4661 requests, the H200's; before, 5286
// labelled exact). `lookupQuad`'s hits leave the loop to their `vals` load with no join, each
// iteration's leavers a group of their own, and the H200 ran some of those groups together: 2707
// load requests in every metrics pass (2702 in every source-page pass: calibration/run/repeat/),
// 2708 apart. Labelled an estimate since `FlowCounts::may_merge_global` (before: exact and wrong,
// so this program was left out)
program!(hashq, 3, [3, 3, 2]);
program!(nbody, 13, [13, 13, 13]);
program!(mergep, 6, [6, 6, 6]);
program!(ccl, 33, [33, 33, 33]);
program!(knn, 3, [3, 3, 3]);
program!(intimg, 4, [4, 4, 4]);
