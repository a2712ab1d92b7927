//! A second labelled race battery, `calibration/races/battery/` (kernels written for this
//! project in the style of third-party labelled suites, shapes `race_suite.rs`'s kernels do not
//! have): races through 2-D indices, a loop barrier in the wrong place, write-after-read on the
//! next iteration, `__syncwarp()` between lanes of different warps, producers/consumers across
//! blocks with and without `__threadfence()` (before or after the barrier), release/acquire in
//! inline PTX at mismatched scopes, atomics against atomics and against plain reads, block-scoped
//! atomics across blocks, same-value writes, races only some launches have, divergent barriers in
//! loops, nested conditions and a `__noinline__` callee (thread, warp and data dependent),
//! cooperative `grid.sync()` phases, blocks of 1024 threads,
//! read-read sharing, sub-word writes of one word, vector stores against scalars, `tid ^ mask`
//! butterflies, dynamic shared memory and shuffles in place of shared memory.
//!
//! Each kernel's `// expect:` line is its label (a kind, or `none`), `// launch:` the launch; a
//! line ending in `// <-` is a line the finding of that kind must name (a race's two accesses, a
//! divergent barrier), one ending in `// <+` a line `check` names although the memory model orders
//! it (a known over-report, said in the kernel's comment). The lines named by the findings of the
//! expected kind must be exactly those (the harness: `labelled/mod.rs`). Labels were derived by hand from the CUDA and PTX memory
//! models; `calibration/races/battery/README.md` has the table.

mod labelled;
mod support;

#[test]
fn check_reports_each_battery_kernel_as_labelled_at_its_lines() {
    let o = labelled::run_battery(&labelled::folder("battery"), true);
    assert!(o.wrong.is_empty(), "{}", o.wrong.join("\n"));
    // the battery as written: 74 kernels, 35 race-free
    assert_eq!(
        o.counts(),
        [
            ("divergent_barrier", 7),
            ("global_race", 19),
            ("none", 35),
            ("race", 12),
            ("same_value_write", 1)
        ]
    );
}
