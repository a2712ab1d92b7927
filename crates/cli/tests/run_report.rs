//! `warpscope run --report`: per kernel the bank picture of the conflicting line's worst request,
//! the fix's before/after (with `--fix`), divergence per line, and per launch the modelled time;
//! the records stay bounded (a kernel launched three times the same way records its worst request
//! once). The program is tests/data/program/report.cu, built by `warpscope run` with the wheels'
//! nvcc; every expected number below is derived by hand in the comments.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(extra: &[&str], tag: &str) -> (Value, String) {
    let dir = std::env::temp_dir().join(format!("warpscope-run-report-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let export = dir.join("report.json");
    let report = dir.join("report.html");
    let mut args = vec![
        "run",
        "--export",
        export.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.push("crates/cli/tests/data/program/report.cu");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(&args)
        .current_dir(repo())
        .env(
            "WARPSCOPE_CUDA_ROOT",
            std::env::var("WARPSCOPE_CUDA_ROOT")
                .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)"),
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Test PASSED"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let page = std::fs::read_to_string(&report).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (v, page)
}

/// The page's section of `kernel` (from its heading to the next kernel's or the notes).
fn section<'a>(page: &'a str, kernel: &str) -> &'a str {
    let start = page
        .find(&format!("\">{kernel}</h2>"))
        .unwrap_or_else(|| panic!("no section for {kernel}"));
    let rest = &page[start..];
    &rest[..rest.find("<h2").unwrap_or(rest.len())]
}

/// The table row (`<tr>...</tr>`) of `html` whose first cell is `first`.
fn row<'a>(html: &'a str, first: &str) -> &'a str {
    html.split("<tr>")
        .find(|r| r.starts_with(&format!("<td class=\"l\">{first}</td>")))
        .unwrap_or_else(|| panic!("no row {first}"))
}

#[test]
fn report_draws_the_worst_request_divergence_time_and_the_fix() {
    let (v, page) = run(&["--fix"], "fix");
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 4);

    // transposeTile, block 32x32: warp w reads tile[l][w] (lane l): byte 128 l + 4 w, every lane in
    // bank w, 32 words: 32 wavefronts (ideal 1) per request, 32 requests per launch on line 13.
    // The first such request (block 0, warp 0) is the one kept: lane l at 128 l.
    let tt: Vec<&Value> = launches
        .iter()
        .filter(|l| l["kernel"] == "transposeTile(const int *, int *)")
        .collect();
    assert_eq!(tt.len(), 3);
    let line13 = |l: &Value| -> Value {
        l["shared_lines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["line"] == 13)
            .expect("line 13 counted")
            .clone()
    };
    let first = line13(tt[0]);
    assert_eq!(
        (first["instructions"].as_u64(), first["wavefronts"].as_u64()),
        (Some(32), Some(1024))
    );
    let w = &first["worst"];
    assert_eq!(
        (w["wavefronts"].as_u64(), w["ideal"].as_u64(), w["width"].as_u64()),
        (Some(32), Some(1), Some(4))
    );
    let lanes: Vec<u64> = w["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(lanes, (0..32).map(|l| 128 * l).collect::<Vec<u64>>());
    // bounded: the two later launches, the same requests, record no worst request again
    for l in &tt[1..] {
        assert!(line13(l).get("worst").is_none(), "{l}");
    }
    // the conflict-free store of line 10 records none
    let store = tt[0]["shared_lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["line"] == 10)
        .unwrap()
        .clone();
    assert!(store.get("worst").is_none());

    // firstEight: 8 of 32 lanes run lines 19 and 20 (the store and the multiply): 25 % active; the
    // branch of line 18 splits the warp (8 fall through, 24 jump).
    let fe = launches
        .iter()
        .find(|l| l["kernel"] == "firstEight(int *)")
        .unwrap();
    let div = fe["divergence_lines"].as_array().expect("divergence recorded");
    for line in [19, 20] {
        let d = div
            .iter()
            .find(|d| d["line"] == line)
            .unwrap_or_else(|| panic!("line {line}: {div:?}"));
        assert_eq!(d["utilisation_pct"].as_f64(), Some(25.0), "line {line}");
    }
    let branch = div.iter().find(|d| d["line"] == 18).expect("line 18");
    assert!(
        branch["branch_efficiency_pct"].as_f64().unwrap() < 100.0,
        "{branch}"
    );
    // transposeTile's 32x32 block: every warp full, no branch: nothing diverged
    assert!(tt.iter().all(|l| l.get("divergence_lines").is_none()));

    // The page: the kernel's worst line as an SVG heatmap of 32 rows, and the fix's before/after.
    let sec = section(&page, "transposeTile(const int *, int *)");
    assert!(sec.contains("Bank picture of each conflicting line"), "{sec}");
    assert!(sec.contains("report.cu:13: ld.shared"), "{sec}");
    assert!(sec.contains("Worst request: 32 wavefronts, ideal 1, 32-way."));
    let heat = &sec[sec.find("Bank picture of each conflicting line").unwrap()..];
    assert!(
        heat.find("<svg")
            .is_some_and(|i| i < heat.find("Fix advice").unwrap()),
        "heatmap before the fix"
    );
    // Padding each 128-byte row by one int moves lane l to 132 l + 4 w: bank (l + w) % 32, one
    // wavefront.
    assert!(
        sec.contains("Before: the array&#39;s worst request, 32 wavefronts (ideal 1).")
            || sec.contains("Before: the array's worst request, 32 wavefronts (ideal 1)."),
        "{sec}"
    );
    assert!(sec.contains("After: the same request, 1 wavefronts (ideal 1)."));
    // the source edit: the declaration of line 8 with one more int per row
    assert!(
        sec.contains("line 8: __shared__ int tile[32][32];\n     -&gt; __shared__ int tile[32][32 + 1];"),
        "the source edit: {sec}"
    );
    // every launch's modelled time: one block on one SM: 1,024 + 32 shared wavefronts take 1,056
    // cycles at 1.995 GHz, 0.529 µs, above the DRAM latency (689.2 cycles, 0.345 µs) and the
    // issue of its fewer than 4,224 warp instructions: 2 + 0.529 = 2.53 µs, shared-bound
    for id in 0..3 {
        let r = row(sec, &id.to_string());
        assert!(r.contains("<td>2.53</td><td>shared</td>"), "launch {id}: {r}");
    }
    // after the padding: 64 wavefronts, 0.032 µs; the DRAM latency bounds it: 2 + 0.345 = 2.35 µs
    assert!(
        sec.contains("Modelled time of launch 0: 2.53 µs before, 2.35 µs after."),
        "{sec}"
    );
    // firstEight's source: line 19 with 25 % of lanes active
    let fsec = section(&page, "firstEight(int *)");
    let r19 = fsec
        .split("<tr")
        .find(|r| r.contains("out[threadIdx.x] =") && r.contains(">19<"))
        .expect("line 19 annotated");
    assert!(r19.contains(">25%<"), "{r19}");
    // the program's picture and the per-kernel summary: transposeTile's three launches sum
    // 3 x (1,024 + 32) wavefronts, ideal 3 x (32 + 32), 3 x 992 of them excess, 3 x 2.5293 µs
    // modelled
    assert!(page.contains("Modelled time per launch"));
    let kernels = &page[page.find("<h2>Kernels</h2>").expect("summary table")..];
    let s = row(kernels, "transposeTile(const int *, int *)");
    assert!(
        s.contains("<td>3</td>") && s.contains("<td>3168</td><td>192</td><td>2976</td>"),
        "{s}"
    );
    assert!(s.contains("<td>7.59</td><td>shared</td>"), "{s}");

    // without --fix: the same pictures of the lines, no before/after
    let (_, plain) = run(&[], "plain");
    assert!(section(&plain, "transposeTile(const int *, int *)").contains("Worst request: 32 wavefronts"));
    assert!(!plain.contains("Before: the array"));
}
