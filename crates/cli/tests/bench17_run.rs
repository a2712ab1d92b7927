//! calibration/run/bench17's programs (written for this project, in shapes the earlier sets lack:
//! a warp-specialised producer/consumer on named barriers (`bar.arrive` / `bar.sync` with thread
//! counts); a single-pass scan and compaction by decoupled look-back; a linear BVH (Morton codes,
//! Karras' radix tree, boxes bottom-up by a visit counter, stack queries); an SGEMM with 8x8
//! results a thread, single and double-buffered; SELL-C-sigma SpMV with C = 32 and C = 16; struct
//! argmin reductions (8- and 12-byte structures in shared memory, a double argmax by shuffles);
//! Viterbi decoding a block a sequence; radix-4 Stockham FFTs of 1,024 and 4,096 points; median-of-
//! nine networks on packed RGBA bytes and floats), built with the wheels' nvcc (`build.sh`), under
//! `warpscope run`, against what an H200 printed and counted (calibration/run/bench17/h200/,
//! measured by `ncu.sh` on these binaries): each program prints what the GPU printed; every
//! launch's registers and theoretical occupancy equal the H200's; every launch whose counters are
//! labelled exact equals the H200's; and at least the launches listed below are labelled exact.

mod support;
support::bench_programs!(built "calibration/run/bench17");

program!(namedbar, 2, [2, 2, 2]);
// the look-back spins on its predecessors' status words: the GPU's timing sets the rounds (branch
// and global counters); the shared ones are exact and equal (warpTot's loads on aligned addresses)
program!(lookback, 2, [0, 2, 0]);
// boxes: a thread goes up while it is the second to arrive (atomicAdd), an order the GPU sets
program!(lbvh, 4, [3, 4, 3]);
program!(sgemm8, 2, [2, 2, 2]);
program!(sellc, 48, [48, 48, 48]);
program!(argmin, 4, [4, 4, 4]);
// the traceback reads the backpointers other warps of the block stored before the barriers: the
// machine-code flow runs again with the words the block stored as the launch left them
// (machine_flow::FlowLate), every counter exact and equal (444,531 branch targets, 48,892 shared
// stores; 447,799 and 48,900 estimated before)
program!(viterbi, 1, [1, 1, 1]);
program!(fft4, 2, [2, 2, 2]);
program!(med9, 3, [3, 3, 3]);
