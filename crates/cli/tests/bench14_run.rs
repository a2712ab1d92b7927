//! calibration/run/bench14's programs (written for this project, in shapes the earlier sets lack:
//! a fork-join pipeline over three streams captured into a graph and relaunched, and the same
//! graph built node by node; stream-ordered allocation across three streams with events; linked
//! nodes in managed memory with advice, prefetch and stream attachment; zero-copy mapped memory
//! with system-scope atomics; pitched 3-D copies around a 7-point stencil; `__constant__` tables
//! indexed by data with symbol copies; `__match_any_sync`/`__reduce_*_sync`/`__fns`; a tiled
//! wavefront DP with one launch per anti-diagonal; warp-per-row CSR SpMV), built with the
//! wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench14/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's;
//! every launch whose counters are labelled exact equals the H200's; and at least the launches
//! listed below are labelled exact.
//!
//! Not replayed here: `kmeansf` (float atomics: the H200 printed other label-change counts in its
//! second run, so its output has no single right answer; its 20 launches are compared in the README).

mod support;
support::bench_programs!(built "calibration/run/bench14");

program!(capgraph, 28, [28, 28, 28]);
program!(evstreams, 24, [24, 24, 24]);
// cudaStreamAttachMemAsync was refused as not supported (the program stopped)
program!(managed, 3, [3, 3, 3]);
// cudaHostGetFlags answered 2 for cudaHostAllocMapped | cudaHostAllocPortable (the H200: 3)
program!(zerocopy, 2, [1, 1, 0]);
program!(stencil3d, 8, [8, 8, 8]);
program!(constsym, 2, [2, 2, 2]);
// fns.b32 (__fns) was refused as an unsupported instruction
program!(warpagg, 2, [2, 2, 1]);
program!(swdiag, 63, [63, 63, 63]);
program!(spmvpow, 36, [36, 36, 36]);
