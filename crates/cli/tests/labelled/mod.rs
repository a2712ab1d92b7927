//! The harness of the labelled race batteries (`race_suite.rs`, `race_battery.rs`,
//! `race_battery2.rs`): a folder of kernels, one a file, each with a `// expect:` line (a finding
//! kind, or `none` for race-free), a `// launch:` line (the flags `check` gets) and, in the
//! batteries that ask for lines, its marked lines: a line ending in `// <-` is one the finding of
//! the expected kind must name, one ending in `// <+` a line `check` names although the memory
//! model orders it (a known over-report the kernel's comment explains).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::cuda_root;

/// The kinds the labels name; other findings (uninitialised reads, advice) are not compared.
pub const KINDS: [&str; 5] = [
    "race",
    "global_race",
    "same_value_write",
    "divergent_barrier",
    "exit_before_remote_access",
];

/// A folder of `calibration/races/`.
pub fn folder(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/races")
        .join(name)
}

/// One labelled kernel.
pub struct Labelled {
    pub path: PathBuf,
    /// The file name.
    pub name: String,
    /// Its `// expect:` kind (`none` for race-free).
    pub want: String,
    /// Its `// launch:` flags.
    pub launch: String,
    /// The 1-based lines ending in `// <-` or `// <+`.
    pub marked: BTreeSet<u64>,
}

impl Labelled {
    pub fn read(path: &Path) -> Labelled {
        let text = std::fs::read_to_string(path).unwrap();
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("{}: no `{key}` line", path.display()))
                .trim()
                .to_string()
        };
        Labelled {
            path: path.to_path_buf(),
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            want: field("// expect:"),
            launch: field("// launch:"),
            marked: text
                .lines()
                .enumerate()
                .filter(|(_, l)| l.trim_end().ends_with("// <-") || l.trim_end().ends_with("// <+"))
                .map(|(i, _)| i as u64 + 1)
                .collect(),
        }
    }
}

/// The `.cu` files of `dir`, sorted, read.
pub fn kernels(dir: &Path) -> Vec<Labelled> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    files.iter().map(|f| Labelled::read(f)).collect()
}

/// Every finding of `check --format json` on `file` with `launch`, or why there is none: an
/// exit status other than 0 (nothing to report) or 1 (findings), i.e. bad input or a crash.
pub fn findings(file: &Path, launch: &str) -> Result<Vec<serde_json::Value>, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("check")
        .arg(file)
        .args(launch.split_whitespace())
        .args(["--format", "json"])
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .expect("run warpscope");
    match out.status.code() {
        Some(0 | 1) => {}
        c => return Err(format!("exit {c:?}: {}", String::from_utf8_lossy(&out.stderr))),
    }
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("no JSON: {e}"))?;
    Ok(doc["findings"].as_array().ok_or("no findings array")?.clone())
}

/// The findings of kernel `name` of `dir` with its own launch; a refusal fails the test.
pub fn findings_of(dir: &Path, name: &str) -> Vec<serde_json::Value> {
    let k = Labelled::read(&dir.join(name));
    findings(&k.path, &k.launch).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What a battery gave: kernels per label, and one line per kernel not as labelled.
pub struct Outcome {
    pub counts: BTreeMap<String, usize>,
    pub wrong: Vec<String>,
}

impl Outcome {
    /// The counts as `(label, kernels)`, labels sorted.
    pub fn counts(&self) -> Vec<(&str, usize)> {
        self.counts.iter().map(|(k, v)| (k.as_str(), *v)).collect()
    }
}

/// Runs `check` on every kernel of `dir`. A race-free kernel must get no finding of [`KINDS`];
/// another must get its kind, and with `exact_lines` the lines the findings of that kind name
/// must be exactly its marked ones. A refusal or crash is wrong whatever the label.
pub fn run_battery(dir: &Path, exact_lines: bool) -> Outcome {
    let mut counts = BTreeMap::<String, usize>::new();
    let mut wrong = Vec::new();
    for k in kernels(dir) {
        *counts.entry(k.want.clone()).or_default() += 1;
        let found: Vec<serde_json::Value> = match findings(&k.path, &k.launch) {
            Ok(x) => x
                .into_iter()
                .filter(|f| f["kind"].as_str().is_some_and(|k| KINDS.contains(&k)))
                .collect(),
            Err(e) => {
                wrong.push(format!("{}: {e}", k.name));
                continue;
            }
        };
        let kinds: BTreeSet<&str> = found.iter().filter_map(|x| x["kind"].as_str()).collect();
        if k.want == "none" {
            assert!(
                k.marked.is_empty(),
                "{}: a race-free kernel with marked lines",
                k.name
            );
            if !kinds.is_empty() {
                wrong.push(format!("{}: race-free, got {kinds:?}", k.name));
            }
            continue;
        }
        if !exact_lines {
            if !kinds.contains(k.want.as_str()) {
                wrong.push(format!("{}: want {}, got {kinds:?}", k.name, k.want));
            }
            continue;
        }
        assert!(!k.marked.is_empty(), "{}: no `// <-` line", k.name);
        let lines: BTreeSet<u64> = found
            .iter()
            .filter(|x| x["kind"] == k.want.as_str())
            .flat_map(|x| x["lines"].as_array().cloned().unwrap_or_default())
            .filter_map(|l| l.as_u64())
            .collect();
        if !kinds.contains(k.want.as_str()) || lines != k.marked {
            wrong.push(format!(
                "{}: want {} at {:?}, got {kinds:?} at {lines:?}",
                k.name, k.want, k.marked
            ));
        }
    }
    Outcome { counts, wrong }
}
