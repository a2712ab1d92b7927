//! `warpscope report`: the page for a seed kernel and for lab results renders in headless Chromium,
//! holds its SVG pictures, and makes no network request (CSP meta tag, no http(s) URL but the SVG
//! namespace, and Chromium's net log shows no http(s) request).
//!
//! Needs WARPSCOPE_CUDA_ROOT (nvcc for the seed's `.cu`) and `chromium` on PATH. Without Chromium the
//! browser half of each test prints `SKIPPED` with the reason and a count; everything else still runs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_warpscope")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpscope-report-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn cuda_env() -> String {
    std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA root (./scripts/cuda-wheels.sh prints it)")
}

/// Runs warpscope from the repository root (so pages name paths relative to it).
fn warpscope(args: &[&str]) -> std::process::Output {
    let root = cuda_env();
    let path = format!("{root}/bin:{}", std::env::var("PATH").unwrap_or_default());
    Command::new(bin())
        .args(args)
        .env("PATH", path)
        .current_dir(repo().canonicalize().unwrap())
        .output()
        .unwrap()
}

/// Checks that hold without a browser: CSP, no script, no URL but the SVG namespace.
fn check_static(html: &str) {
    assert!(
        html.contains(r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">"#),
        "CSP meta tag"
    );
    assert!(!html.contains("<script"), "no script");
    let stripped = html
        .replace("http://www.w3.org/2000/svg", "")
        .replace("http://www.w3.org/1999/xlink", "");
    for scheme in ["http://", "https://", "//fonts", "url("] {
        assert!(!stripped.contains(scheme), "the page names `{scheme}`");
    }
}

/// Renders `html` in Chromium: DOM dump, screenshot, net log. Returns the DOM, or None (skipped).
fn chromium(html: &Path, dir: &Path) -> Option<String> {
    let Ok(found) = Command::new("chromium").arg("--version").output() else {
        println!(
            "SKIPPED (1): chromium not on PATH; ./scripts/test installs it when run as root (apt-get install -y chromium)"
        );
        return None;
    };
    assert!(found.status.success(), "chromium --version failed");
    let url = format!("file://{}", html.canonicalize().unwrap().display());
    let common = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
    ];
    let netlog = dir.join("net.json");
    let dom = Command::new("chromium")
        .args(common)
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg(format!("--user-data-dir={}", dir.join("profile1").display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap();
    assert!(
        dom.status.success(),
        "chromium --dump-dom: {}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let png = dir.join("page.png");
    let shot = Command::new("chromium")
        .args(common)
        .arg(format!("--user-data-dir={}", dir.join("profile2").display()))
        .arg("--window-size=1500,2000")
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(
        shot.status.success(),
        "chromium --screenshot: {}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let bytes = std::fs::read(&png).expect("screenshot written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    assert!(
        bytes.len() > 20_000,
        "a screenshot with content ({} bytes)",
        bytes.len()
    );
    let page_requests = page_requests(&netlog);
    assert!(
        page_requests.is_empty(),
        "the page made network requests: {page_requests:?}"
    );
    Some(String::from_utf8(dom.stdout).unwrap())
}

/// URLs that a document (not the browser itself, whose background requests have the initiator
/// `not an origin`) asked for, from Chromium's net log.
fn page_requests(netlog: &Path) -> Vec<String> {
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(netlog).expect("net log written"))
            .expect("net log is JSON");
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        .as_u64()
        .expect("net log names URL_REQUEST_START_JOB");
    log["events"]
        .as_array()
        .expect("net log events")
        .iter()
        .filter(|e| e["type"].as_u64() == Some(start_job))
        .filter(|e| e["params"]["initiator"].as_str() != Some("not an origin"))
        .filter_map(|e| e["params"]["url"].as_str().map(str::to_string))
        .collect()
}

/// The net-log check can fail: a page with an `<img>` from the network and no CSP is caught.
#[test]
fn net_log_check_catches_a_page_request() {
    let dir = scratch("control");
    let page = dir.join("control.html");
    std::fs::write(
        &page,
        "<html><body><img src=\"http://127.0.0.1:9/x.png\"></body></html>",
    )
    .unwrap();
    if Command::new("chromium").arg("--version").output().is_err() {
        println!("SKIPPED (1): chromium not on PATH; ./scripts/test installs it when run as root");
        return;
    }
    let netlog = dir.join("net.json");
    let o = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--dump-dom",
        ])
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        page_requests(&netlog),
        vec!["http://127.0.0.1:9/x.png".to_string()]
    );
}

#[test]
fn seed_kernel_report_renders_offline_with_its_pictures() {
    let dir = scratch("seed");
    let out = dir.join("report.html");
    let json = dir.join("results.json");
    let cu = repo()
        .canonicalize()
        .unwrap()
        .join("calibration/kernels/seeds/sqRowCol.cu");
    let o = warpscope(&[
        "report",
        cu.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "32,32",
        "--arg",
        "buf:4096",
        "-o",
        out.to_str().unwrap(),
        "--save-json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    check_static(&html);
    // The seed's column read: 32 requests, 1024 wavefronts, ideal 32 (H100 ncu agrees:
    // calibration/kernels/seeds_groundtruth_h100.tsv); the row write is conflict-free.
    assert!(
        html.contains("32 requests, 1024 wavefronts (ideal 32)"),
        "conflict summary"
    );
    assert!(
        html.contains("out[idx] = tile[threadIdx.x][threadIdx.y];"),
        "source line"
    );
    // The heading names the file relative to the current directory (an absolute path was given).
    assert!(
        html.contains("<h2>Source: calibration/kernels/seeds/sqRowCol.cu</h2>"),
        "relative heading"
    );
    let abs = repo().canonicalize().unwrap().display().to_string();
    assert!(
        !html.contains(&abs),
        "no absolute path under the current directory"
    );
    // The fix advisor: the seed's padding (IPAD 1) and a swizzle, each with its worst request
    // before (1024 wavefronts over the launch, 32 per request) and after (conflict-free).
    assert!(html.contains("<h3>tile: pad (recommended)</h3>"), "fix section");
    assert!(
        html.contains("-&gt; __shared__ int tile[BDIMY][BDIMX + 1];"),
        "the source edit"
    );
    assert!(html.contains("Before: the array's worst request, 32 wavefronts (ideal 1)."));
    assert!(html.contains("After: the same request, 1 wavefronts (ideal 1)."));
    // conflict heatmap + the three occupancy curves + before/after heatmaps of two suggestions
    assert_eq!(html.matches("<svg").count(), 6);
    assert!(html.contains("occupancy vs registers"));
    // Saved results draw the same page again.
    let again = dir.join("again.html");
    let o = warpscope(&[
        "report",
        "--from",
        json.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&again).unwrap(),
        html,
        "--from of --save-json reproduces the page"
    );
    if let Some(dom) = chromium(&out, &dir) {
        assert_eq!(dom.matches("<svg").count(), 6, "SVGs in the rendered DOM");
        assert!(dom.matches("<rect").count() > 32 * 32, "heatmap cells in the DOM");
        assert!(dom.contains("warpscope report: sqRowCol"));
    }
}

/// The page of the real H100 lab run (calibration/lab/h100, `warpscope lab --out`), read from its
/// directory; the saved device list there is passed over.
#[test]
fn lab_report_of_the_recorded_h100_run_renders_offline() {
    let dir = scratch("lab");
    let out = dir.join("lab.html");
    let data = repo().join("calibration/lab/h100");
    let o = warpscope(&[
        "report",
        "--from",
        data.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("device_query.json: not a lab result, passed over"));
    let html = std::fs::read_to_string(&out).unwrap();
    check_static(&html);
    for exp in [
        "adjdiff",
        "device",
        "divergence",
        "hostmem",
        "occupancy",
        "regs",
        "smem",
        "streams",
        "transpose",
    ] {
        let heading = format!("{exp} on NVIDIA H100 80GB HBM3 (CC 9.0)");
        assert!(html.contains(&heading), "missing {heading}");
    }
    // Every check of the recorded run passed.
    assert!(html.contains("PASS") && !html.contains("FAIL"));
    let svgs = html.matches("<svg").count();
    // streams: time per stream count + one timeline per recorded run; hostmem, transpose, adjdiff:
    // one chart each.
    assert!(svgs >= 4, "{svgs} pictures");
    if let Some(dom) = chromium(&out, &dir) {
        assert_eq!(dom.matches("<svg").count(), svgs);
    }
}

/// The synthetic fixtures (crates/report/tests/data/lab) hold a failed check, which the real run
/// does not: the page marks it.
#[test]
fn lab_report_marks_a_failed_check() {
    let dir = scratch("labfail");
    let out = dir.join("lab.html");
    let data = repo().join("crates/report/tests/data/lab");
    let o = warpscope(&[
        "report",
        "--from",
        data.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    check_static(&html);
    assert!(html.contains("FAIL") && html.contains("PASS"));
}

#[test]
fn bad_saved_results_name_the_file_and_line() {
    let dir = scratch("bad");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\n  \"kernel\": \"k\",\n  oops\n}").unwrap();
    let o = warpscope(&[
        "report",
        "--from",
        bad.to_str().unwrap(),
        "-o",
        dir.join("x.html").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("{}:3:", bad.display())), "{err}");
    std::fs::write(&bad, "{\"kernel\": \"k\"}").unwrap();
    let o = warpscope(&[
        "report",
        "--from",
        bad.to_str().unwrap(),
        "-o",
        dir.join("x.html").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not the JSON of `warpscope analyze`"));
}
