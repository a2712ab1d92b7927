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
//! expected kind must be exactly those. Labels were derived by hand from the CUDA and PTX memory
//! models; `calibration/races/battery/README.md` has the table.

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::cuda_root;

const KINDS: [&str; 5] = [
    "race",
    "global_race",
    "same_value_write",
    "divergent_barrier",
    "exit_before_remote_access",
];

fn battery() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../calibration/races/battery")
}

/// `check`'s findings of the kinds above for `file` under `launch`, or why there are none.
fn findings(file: &Path, launch: &str) -> Result<Vec<serde_json::Value>, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("check")
        .arg(file)
        .args(launch.split_whitespace())
        .args(["--format", "json"])
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .expect("run warpscope");
    // 0: nothing to report, 1: findings; anything else (bad input, a crash) fails the kernel
    match out.status.code() {
        Some(0 | 1) => {}
        c => return Err(format!("exit {c:?}: {}", String::from_utf8_lossy(&out.stderr))),
    }
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("no JSON: {e}"))?;
    Ok(doc["findings"]
        .as_array()
        .ok_or("no findings array")?
        .iter()
        .filter(|f| f["kind"].as_str().is_some_and(|k| KINDS.contains(&k)))
        .cloned()
        .collect())
}

#[test]
fn check_reports_each_battery_kernel_as_labelled_at_its_lines() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(battery())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    let mut wrong = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("{}: no `{key}` line", f.display()))
                .trim()
                .to_string()
        };
        let (want, launch) = (field("// expect:"), field("// launch:"));
        *counts.entry(want.clone()).or_default() += 1;
        let marked: std::collections::BTreeSet<u64> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_end().ends_with("// <-") || l.trim_end().ends_with("// <+"))
            .map(|(i, _)| i as u64 + 1)
            .collect();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let found = match findings(f, &launch) {
            Ok(x) => x,
            Err(e) => {
                wrong.push(format!("{name}: {e}"));
                continue;
            }
        };
        let kinds: std::collections::BTreeSet<&str> =
            found.iter().filter_map(|x| x["kind"].as_str()).collect();
        if want == "none" {
            assert!(marked.is_empty(), "{name}: a race-free kernel with marked lines");
            if !kinds.is_empty() {
                wrong.push(format!("{name}: race-free, got {kinds:?}"));
            }
            continue;
        }
        assert!(!marked.is_empty(), "{name}: no `// <-` line");
        let lines: std::collections::BTreeSet<u64> = found
            .iter()
            .filter(|x| x["kind"] == want.as_str())
            .flat_map(|x| x["lines"].as_array().cloned().unwrap_or_default())
            .filter_map(|l| l.as_u64())
            .collect();
        if !kinds.contains(want.as_str()) || lines != marked {
            wrong.push(format!(
                "{name}: want {want} at {marked:?}, got {kinds:?} at {lines:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // the battery as written: 74 kernels, 35 race-free
    let counts: Vec<(&str, usize)> = counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        counts,
        [
            ("divergent_barrier", 7),
            ("global_race", 19),
            ("none", 35),
            ("race", 12),
            ("same_value_write", 1)
        ]
    );
}
