//! calibration/run/bench20's programs (written for this project, in shapes the earlier sets lack:
//! double-precision division, square root and reciprocal over operands that take ptxas's slow
//! paths and that do not, a Newton loop leaving on a float test; 64-bit integer division and
//! remainder by run-time values (ptxas's subroutines) in Euclid's loop, signed, and a radix
//! writer; float division's FCHK on ordinary and odd operands, quotients branched on through
//! shared memory and a shared atomic's result; `__noinline__` functions called from concurrent
//! blocks; shared addresses built in 32-bit registers below the array; a `while (true)`
//! tokenizer with `break` and `continue`; two of them also built with `-G`), built with the
//! wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench20/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's;
//! every launch whose counters are labelled exact equals the H200's; and at least the launches
//! listed below are labelled exact.

// `tokens_G`: the binary's name, a debug (-G) build
#![allow(non_snake_case)]

mod support;
support::bench_programs!(built "calibration/run/bench20");

// `dops`: the square root's and the division's slow-path tests on NaN operands, followed with
// the GPU's double NaNs (calibration/equivalence/features/f64Nan.cu, calibration/fmanan/)
program!(dslow, 3, [3, 3, 3]);
// Euclid's loop and the radix writer branch on remainders ptxas's 64-bit subroutine computes
// through the carry out of an `IMAD.HI.U32`, which the flow leaves unknown: estimates
program!(div64, 3, [1, 3, 2]);
// the branch on a shared atomicAdd's old value is followed (every order gives `old < bound`);
// the ticket of a global atomicAdd (which warps of the grid are first is the GPU's timing)
// stops the flow: the branch and global counters are estimates; the shared ones exact
program!(fbins, 1, [0, 1, 0]);
program!(calls, 2, [2, 2, 2]);
program!(negoff, 3, [3, 3, 3]);
program!(tokens, 1, [1, 1, 1]);
// a debug build: two groups of lanes inside one convergence barrier at once (estimates)
program!(tokens_G, 1, [0, 1, 0]);
// a debug build followed into its division subroutines (`I2F.U64.RP` seeds their reciprocal);
// radix's global accesses are the PTX's
program!(div64_G, 3, [3, 3, 2]);
