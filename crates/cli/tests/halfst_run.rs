//! `warpscope run` on calibration/halfst/halfst.cu, own kernels of adjacent 16-bit shared stores
//! written by inline `st.shared.u16`/`.b16` (one PTX store per half, as CuTe's epilogues write
//! them): a word-aligned pair and the same upper half first (ptxas pairs them into one `STS`),
//! halves across a word boundary, with a gap, under two predicates or one (kept as `STS.U16`),
//! four halves (one `STS.64`), two pairs and a lone half, C++ `__half` stores, and a pair whose
//! loop count comes from shared memory. Built twice (calibration/halfst/build.sh): with line info,
//! and without, where the machine code's accesses are matched over the whole kernel. Every launch
//! must print what the H200 printed and, for every counter labelled exact, count what it counted
//! (calibration/halfst/h200/: `halfst.stdout`, `halfst.ncu.csv`, and the same for
//! `halfst_noline`). `flagged` (its loop count from shared memory) keeps one group an estimate in
//! each build (equal to the H200's): with line info its shared counters, without its branches.

mod support;

support::bench_programs!(built "calibration/halfst");

program!(halfst, 20, [20, 18, 20]);
program!(halfst_noline, 20, [18, 20, 20]);
