//! calibration/run/cccl's programs (Thrust and CUB: device_vector algorithms, radix and merge
//! sorts, CUB's device-wide algorithms with decoupled look-back, block- and warp-wide collectives
//! in user kernels), built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what
//! an H200 printed and counted (calibration/run/cccl/h200/, measured by `ncu.sh`): each program
//! prints what the GPU printed; every launch's registers and theoretical occupancy equal the
//! H200's; every launch whose branch, shared-memory or global-memory counters are labelled exact
//! equals the H200's; and at least the launches listed below are labelled exact, so a change that
//! loses them fails. Building the four programs takes most of the time (about 2.5 CPU minutes of
//! nvcc; the runs about 30 s).

use std::path::PathBuf;
use std::sync::OnceLock;

mod support;

/// The programs, built once for every test of this binary.
fn built() -> &'static PathBuf {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let dir = support::scratch("cccl");
        support::build("calibration/run/cccl/build.sh", dir.path());
        let p = dir.path().to_path_buf();
        (dir, p)
    })
    .1
}

/// Runs the built `program` and checks it against `h200/{program}`
/// ([`support::check_against_h200`]).
fn check(program: &str) -> (usize, [usize; 3]) {
    let bin = built().join(program);
    support::check_against_h200(
        "calibration/run/cccl/h200",
        program,
        &["--".as_ref(), bin.as_os_str()],
    )
}

macro_rules! program {
    ($name:ident, $launches:expr, $exact:expr) => {
        #[test]
        fn $name() {
            let got = check(stringify!($name));
            support::assert_exact_at_least(stringify!($name), got, $launches, $exact);
        }
    };
}

// tile_scan's shared counters: the raking scan's repeated loads that ptxas removed (an estimate)
program!(cubblock, 4, [4, 3, 4]);
// the look-back kernels (scan, select, onesweep): spin loops, every counter an estimate
program!(cubdev, 22, [14, 17, 16]);
program!(tbasic, 18, [14, 14, 14]);
program!(tsort, 43, [25, 27, 29]);
