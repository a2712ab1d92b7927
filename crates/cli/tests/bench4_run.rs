//! calibration/run/bench4's programs (written for this project in the shapes of classic GPU
//! benchmarks the earlier sets lack: a 2-D wavelet transform by lifting, template tracking over
//! frames, variable-length encoding, a bucket sort with a merge, GICOV cell detection with a
//! dilation, suffix-array string matching, a stiff ODE system on a few threads) under `warpscope
//! run`, against what an H200 printed and counted (calibration/run/bench4/h200/, measured by
//! `ncu.sh`): each program prints what the GPU printed; every launch's registers and theoretical
//! occupancy equal the H200's; every launch whose branch, shared-memory or global-memory counters
//! are labelled exact equals the H200's branch targets and divergent targets, shared instructions
//! and (instruction-attributed) wavefronts, global requests and sectors; and at least the launches
//! listed below are labelled exact, so a change that loses them fails.

mod support;
support::bench_programs!(source "calibration/run/bench4");

// the 9/7 lifting's line reads s[k-1], s[k], s[k+1] in each of 4 unrolled steps; the machine code
// reads two of the steps with an LDS.64: the float kernels' shared counters are the machine code's
// own LDS and STS, followed on the launch (before: estimates in 6 launches)
program!(dwt, "dwt", [], 12, [12, 12, 12]);
// `track`'s lines do not match the machine code's one for one: its shared counters are counted
// on the machine code (before: estimates in 6 launches)
program!(hwall, "hwall", [], 7, [7, 7, 7]);
program!(vlc, "vlc", [], 3, [3, 3, 3]);
// the scatter's stores take slots from atomics: `bsort` and `merge` read data whose layout the
// GPU's atomic order decided (estimates, `warpscope__order_dependent_input`)
program!(hsort, "hsort", [], 5, [3, 3, 2]);
program!(leuko, "leuko", [], 3, [3, 3, 3]);
program!(mummer, "mummer", [], 2, [2, 2, 2]);
program!(myocyte, "myocyte", [], 6, [6, 6, 6]);
