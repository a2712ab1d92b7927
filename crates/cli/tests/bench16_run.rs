//! calibration/run/bench16's programs (written for this project, in shapes the earlier sets lack:
//! SHA-256 a thread a message and a double-SHA-256 nonce search with atomicMin; AES-128 in
//! counter mode with T-tables in shared memory and a rotated single table with a byte S-box;
//! checkerboard Metropolis for the 2-D Ising model, a launch a colour; CSR transpose by atomics,
//! a three-launch scan, per-column insertion sorts and transposed products; triangle counting by
//! merge intersections and by binary searches in shared memory; Sobol points by Gray code; a
//! staggered-fermion hopping term and plaquette on a 16^4 lattice; blocked Cholesky in double;
//! bicubic and area resizing of uchar4 images), built with the wheels' nvcc (`build.sh`), under
//! `warpscope run`, against what an H200 printed and counted (calibration/run/bench16/h200/,
//! measured by `ncu.sh` on these binaries): each program prints what the GPU printed (resize's
//! image hashes need ptxas's contraction of `3t^3 - 5t^2` beside `4t^2 - 3t^3`); every launch's
//! registers and theoretical occupancy equal the H200's; every launch whose counters are
//! labelled exact equals the H200's (cholesky's `update` needs the 16-byte `li` loads told from
//! the 8-byte `lj` loads of the same PTX shape); and at least the launches listed below are
//! labelled exact. msquares' `emit` loads the warp total before `if (n == 0) return` in the PTX
//! and ptxas sinks the load below the return (`reconcile::loads_moved_below_exits`): its shared
//! loads are the machine code's (24,418 and 21,291 where the PTX runs 130,976).

mod support;
support::bench_programs!(built "calibration/run/bench16");

// search's grid-stride loop reloads nothing an atomic writes, but its atomics make it look like
// a wait: branch and global counters estimates (equal to the H200's)
program!(sha256, 2, [1, 2, 1]);
program!(aes, 3, [3, 3, 3]);
program!(msquares, 6, [6, 6, 6]);
program!(ising, 126, [126, 126, 126]);
// countCols and scatter reload rowPtr beside their atomics on counts in another allocation: no
// wait, exact and equal (scatter's stores take the atomics' slots: global estimates); sortCols,
// spmvT and spmvWarp read what the scatter's atomics laid out: estimates
program!(csrtrans, 8, [5, 5, 4]);
program!(tricount, 2, [2, 2, 2]);
program!(sobol, 2, [2, 2, 2]);
program!(stagger, 21, [21, 21, 21]);
program!(cholesky, 94, [94, 94, 94]);
program!(resize, 3, [3, 3, 3]);
