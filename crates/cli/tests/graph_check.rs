//! `warpscope run --check` on the grids of a CUDA graph's kernel nodes
//! (`calibration/races/programs/graph_node_bugs.cu`, built by `warpscope run` with the wheels'
//! nvcc): a graph built node by node, captured from a stream, or one kernel node whose thread
//! launches the grids itself (dynamic parallelism). A shared-memory race, a global race between
//! two threads of one grid and an out-of-bounds store planted in a node's kernel are each found at
//! their lines in that grid's launch, as in a plain launch; the race-free build has no finding
//! (the graph's edges order its nodes) and prints the sum the GPU computes.

use serde_json::Value;

mod support;
use support::{repo, run_checked, scratch};

/// How the graph is made: node by node, captured, or one node launching the grids.
const HOW: [&[&str]; 3] = [&[], &["CAPTURE"], &["CHILD"]];

/// One run's export, exit status and standard output (the program's, then the report).
fn run(defines: &[&str], sarif: Option<&std::path::Path>) -> (Value, i32, String) {
    let extra: Vec<&std::ffi::OsStr> = match sarif {
        Some(s) => vec!["--sarif".as_ref(), s.as_os_str()],
        None => Vec::new(),
    };
    let src = repo().join("calibration/races/programs/graph_node_bugs.cu");
    let c = run_checked("graph-check", &src, defines, &extra);
    (c.export, c.status, c.stdout)
}

/// Every finding of the launches: (kernel's name up to `(`, kind, line).
fn findings(v: &Value) -> Vec<(String, String, Option<u64>)> {
    let mut found = Vec::new();
    for l in v["launches"].as_array().unwrap() {
        let kernel = l["kernel"].as_str().unwrap();
        let name = kernel.split('(').next().unwrap().to_string();
        for f in l["findings"].as_array().into_iter().flatten() {
            found.push((
                name.clone(),
                f["kind"].as_str().unwrap().to_string(),
                f["line"].as_u64(),
            ));
        }
    }
    found
}

fn with<'a>(how: &[&'a str], bug: &'a str) -> Vec<&'a str> {
    let mut d = how.to_vec();
    d.push(bug);
    d
}

#[test]
fn the_race_free_graph_has_no_finding_however_it_is_made() {
    for how in HOW {
        let (v, status, stdout) = run(how, None);
        let launches = v["launches"].as_array().unwrap().len();
        assert_eq!(launches, if how == ["CHILD"] { 4 } else { 3 }, "{how:?}");
        assert_eq!(findings(&v), [], "{how:?}");
        assert!(
            v["program_findings"]
                .as_array()
                .into_iter()
                .flatten()
                .next()
                .is_none(),
            "{how:?}: {:#}",
            v["program_findings"]
        );
        assert_eq!(status, 0, "{how:?}");
        // the program's own line comes first, the report after it
        assert_eq!(stdout.lines().next(), Some("1856"), "{how:?}");
    }
}

#[test]
fn a_shared_race_in_a_node_is_found_in_its_grid_at_its_lines() {
    for how in HOW {
        let (v, status, _) = run(&with(how, "SHARED"), None);
        let f = findings(&v);
        let races: Vec<_> = f.iter().filter(|x| x.1 == "race").collect();
        assert!(!races.is_empty(), "{how:?}: {f:#?}");
        for (kernel, _, line) in &races {
            assert_eq!(kernel, "tile_sum", "{how:?}: {f:#?}");
            assert!(matches!(line, Some(30 | 34)), "{how:?}: {f:#?}");
        }
        assert!(races.iter().any(|x| x.2 == Some(30)), "{how:?}: {f:#?}");
        assert!(races.iter().any(|x| x.2 == Some(34)), "{how:?}: {f:#?}");
        // nothing in the other grids, and no race between the nodes
        assert!(
            f.iter().all(|x| x.0 == "tile_sum" && x.1 != "stream_race"),
            "{how:?}: {f:#?}"
        );
        assert_eq!(status, 1, "{how:?}");
    }
}

#[test]
fn a_global_race_between_threads_of_a_node_is_found_at_its_line() {
    for how in HOW {
        let (v, status, _) = run(&with(how, "GLOBAL"), None);
        let f = findings(&v);
        assert!(!f.is_empty(), "{how:?}");
        for (kernel, kind, line) in &f {
            assert_eq!(
                (kernel.as_str(), kind.as_str(), *line),
                ("shift", "global_race", Some(38))
            );
        }
        assert_eq!(status, 1, "{how:?}");
    }
}

#[test]
fn an_out_of_bounds_store_in_a_node_is_found_at_its_line() {
    for how in HOW {
        let (v, status, _) = run(&with(how, "OOB"), None);
        let f = findings(&v);
        assert_eq!(
            f,
            [("fill".to_string(), "out_of_bounds".to_string(), Some(25))],
            "{how:?}"
        );
        assert_eq!(status, 1, "{how:?}");
    }
}

/// `--sarif` carries a graph node's grid's findings: error results at the `.cu` lines, for a
/// grid that a kernel node launched.
#[test]
fn sarif_carries_a_race_in_a_grid_a_graph_node_launched() {
    let dir = scratch("graph-check-sarif");
    let sarif = dir.path().join("run.sarif");
    let (_, status, _) = run(&["CHILD", "SHARED"], Some(&sarif));
    assert_eq!(status, 1);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let mut lines: Vec<u64> = results
        .iter()
        .filter(|r| r["ruleId"] == "race")
        .map(|r| {
            assert_eq!(r["level"], "error", "{r:#}");
            let loc = &r["locations"][0]["physicalLocation"];
            assert!(
                loc["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with("graph_node_bugs.cu"),
                "{r:#}"
            );
            loc["region"]["startLine"].as_u64().unwrap()
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    assert_eq!(lines, [30, 34], "{doc:#}");
}
