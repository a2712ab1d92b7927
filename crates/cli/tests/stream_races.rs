//! `warpscope run --check` on launches and copies that the streams' order leaves unordered
//! (`calibration/races/programs/stream*.cu`, each built with the wheels' nvcc with and without
//! the `-D` that changes its order): a `stream_race` where nothing orders two pieces of device
//! work that touch one byte, one of them writing it; none where an event, a synchronisation or
//! the legacy default stream orders them, where the bytes are disjoint, or where both read or
//! both are atomics. The exit status is 1 with a finding, 0 without.

use std::process::Command;

use serde_json::Value;

mod support;
use support::{cuda_root, repo, run_checked, scratch};

/// The `stream_race` findings of one run: (launch's kernel or `(program)`, line, message), and
/// the exit status.
fn stream_races(program: &str, defines: &[&str]) -> (Vec<(String, Option<u64>, String)>, i32) {
    let src = repo().join("calibration/races/programs").join(program);
    let c = run_checked("streams", &src, defines, &[]);
    let v = c.export;
    let mut found = Vec::new();
    for l in v["launches"].as_array().unwrap() {
        for f in l["findings"].as_array().into_iter().flatten() {
            if f["kind"] == "stream_race" {
                assert_eq!(f["severity"], "error");
                found.push((
                    l["kernel"].as_str().unwrap().to_string(),
                    f["line"].as_u64(),
                    f["message"].as_str().unwrap().to_string(),
                ));
            }
        }
    }
    for f in v["program_findings"].as_array().into_iter().flatten() {
        if f["kind"] == "stream_race" {
            found.push((
                "(program)".into(),
                f["line"].as_u64(),
                f["message"].as_str().unwrap().to_string(),
            ));
        }
    }
    (found, c.status)
}

fn assert_none(program: &str, defines: &[&str]) {
    let (found, status) = stream_races(program, defines);
    assert!(found.is_empty(), "{program} {defines:?}: {found:#?}");
    assert_eq!(status, 0, "{program} {defines:?}");
}

fn one(program: &str, defines: &[&str]) -> (String, Option<u64>, String) {
    let (mut found, status) = stream_races(program, defines);
    assert_eq!(found.len(), 1, "{program} {defines:?}: {found:#?}");
    assert_eq!(status, 1, "{program} {defines:?}");
    found.remove(0)
}

#[test]
fn two_non_blocking_streams_without_an_event_race_and_with_one_do_not() {
    let (kernel, line, message) = one("streams_race.cu", &[]);
    assert!(kernel.starts_with("consume"), "{kernel}");
    assert_eq!(line, Some(12));
    for part in [
        "launch 1 `consume",
        "reads byte 0 of the 256-byte allocation at 0x",
        "(line 12)",
        "launch 0 `produce",
        "writes (line 11)",
        "(non-blocking)",
        "stream 0x",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
    assert_none("streams_race.cu", &["EVENT"]);
}

/// `--sarif` carries the finding: a `stream_race` rule and an error result at the `.cu` line.
#[test]
fn sarif_carries_a_stream_race() {
    let dir = scratch("streams-sarif");
    let sarif = dir.path().join("run.sarif");
    let src = repo().join("calibration/races/programs/streams_race.cu");
    let c = run_checked("streams", &src, &[], &["--sarif".as_ref(), sarif.as_os_str()]);
    assert_eq!(c.status, 1);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let run = &doc["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let races: Vec<&Value> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ruleId"] == "stream_race")
        .collect();
    assert_eq!(races.len(), 1, "{doc:#}");
    let r = races[0];
    assert_eq!(r["level"], "error");
    assert_eq!(
        rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "stream_race"
    );
    let loc = &r["locations"][0]["physicalLocation"];
    assert!(
        loc["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("streams_race.cu"),
        "{loc}"
    );
    assert_eq!(loc["region"]["startLine"], 12);
    assert_eq!(r["properties"]["launch"], 1);
}

#[test]
fn stream_synchronize_orders_two_non_blocking_streams() {
    assert_none("stream_sync.cu", &[]);
    let (_, line, message) = one("stream_sync.cu", &["NOSYNC"]);
    assert_eq!(line, Some(8));
    assert!(
        message.contains("writes byte 0") && message.contains("writes (line 8)"),
        "{message}"
    );
}

#[test]
fn the_legacy_default_stream_orders_blocking_streams_only() {
    assert_none("stream_legacy.cu", &[]);
    for d in ["NONBLOCKING", "NODEFAULT", "PERTHREAD"] {
        let (kernel, line, message) = one("stream_legacy.cu", &[d]);
        assert!(kernel.starts_with("get"), "{d}: {kernel}");
        assert_eq!(line, Some(12), "{d}");
        assert!(
            message.contains("`put") && message.contains("(line 10)"),
            "{d}: {message}"
        );
    }
}

#[test]
fn disjoint_bytes_reads_and_atomics_do_not_race_but_overlaps_and_plain_reads_do() {
    assert_none("stream_footprints.cu", &[]);
    let (kernel, line, message) = one("stream_footprints.cu", &["OVERLAP"]);
    assert!(kernel.starts_with("half"), "{kernel}");
    assert_eq!(line, Some(9));
    // the second half starts at int 32: its first write the first half also writes is byte 128
    assert!(
        message.contains("writes byte 128 of the 512-byte allocation"),
        "{message}"
    );
    let (kernel, line, message) = one("stream_footprints.cu", &["PLAIN"]);
    assert!(kernel.starts_with("peek"), "{kernel}");
    assert_eq!(line, Some(12));
    assert!(message.contains("updates atomically (line 11)"), "{message}");
}

#[test]
fn asynchronous_copies_race_with_kernels_on_other_streams() {
    let (found, status) = stream_races("stream_copy.cu", &[]);
    assert_eq!(status, 1);
    assert_eq!(found.len(), 2, "{found:#?}");
    let (kernel, line, message) = &found[0];
    assert!(kernel.starts_with("twice"), "{kernel}");
    assert_eq!(*line, Some(9));
    assert!(
        message.contains("which cudaMemcpyAsync of 256 bytes on stream 0x"),
        "{message}"
    );
    let (kernel, line, message) = &found[1];
    assert_eq!(kernel, "(program)");
    assert_eq!(*line, None);
    assert!(
        message.starts_with("cudaMemcpyAsync of 256 bytes on stream 0x")
            && message.contains("reads byte 0")
            && message.contains("`fill")
            && message.contains("writes (line 10)"),
        "{message}"
    );
    assert_none("stream_copy.cu", &["EVENT"]);
}

/// The export of `run --check` on one program (`calibration/races/programs`), and the exit status.
fn export_of(program: &str, defines: &[&str]) -> (Value, i32) {
    let dir = scratch("streams-export");
    let export = dir.path().join("run.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    cmd.args(["run", "--check", "--export"]).arg(&export);
    for d in defines {
        cmd.args(["-D", d]);
    }
    let out = cmd
        .arg(repo().join("calibration/races/programs").join(program))
        .current_dir(dir.path())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&export).unwrap_or_else(|e| {
        panic!(
            "{program} {defines:?}: no export ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (
        serde_json::from_str(&text).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn contains_all(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "{part}: {message}");
    }
}

/// Two kernel nodes of one graph with no path of edges between them race, built node by node or
/// captured from two streams; an edge (given when the node is added, added later, or captured
/// through an event) orders them, and so does an event wait node for an event another graph's
/// event record node recorded.
#[test]
fn graph_nodes_are_ordered_by_their_edges() {
    for variant in [&[][..], &["CAPTURE"]] {
        let (kernel, line, message) = one("stream_graph.cu", variant);
        assert!(kernel.starts_with("scale"), "{variant:?}: {kernel}");
        assert_eq!(line, Some(22), "{variant:?}");
        contains_all(
            &message,
            &[
                "launch 1 `scale(int *)` (node 1 of graph 0x",
                "reads byte 0 of the 256-byte allocation",
                "which launch 0 `fill(int *, int)` (node 0 of graph 0x",
                "writes (line 21)",
                "and no path of graph 0x",
                "'s edges leads from one node to the other",
            ],
        );
    }
    for variant in [
        &["EDGE"][..],
        &["EDGE", "ADDDEP"],
        &["CAPTURE", "EDGE"],
        &["EVENTNODE"],
    ] {
        assert_none("stream_graph.cu", variant);
    }
    // without the wait node the other graph's node races with this graph's and with the launch
    // after it, which are not nodes of one graph
    let (found, status) = stream_races("stream_graph.cu", &["EVENTNODE", "NOWAIT"]);
    assert_eq!(status, 1);
    assert_eq!(found.len(), 2, "{found:#?}");
    for (_, _, m) in &found {
        contains_all(
            m,
            &[
                "which launch 0 `fill(int *, int)` (node 0 of graph 0x",
                "nothing orders the two",
            ],
        );
    }
}

/// A graph launch is ordered in its stream: the launch after it on the same stream waits for every
/// node, one on another stream for none.
#[test]
fn a_graph_launch_is_ordered_in_its_stream() {
    let (found, status) = stream_races("stream_graph.cu", &["EDGE", "OTHER"]);
    assert_eq!(status, 1);
    assert_eq!(found.len(), 2, "{found:#?}");
    for ((kernel, line, m), node) in found.iter().zip(["node 0 of graph", "node 1 of graph"]) {
        assert!(kernel.starts_with("fill"), "{kernel}");
        assert_eq!(*line, Some(21));
        contains_all(
            m,
            &[
                "launch 2 `fill(int *, int)` on stream 0x",
                node,
                "nothing orders the two",
            ],
        );
    }
}

/// Pitched 2-D and 3-D copies and 2-D sets touch their rows only: a kernel on another stream that
/// writes only the rows' padding does not race with them, one that writes inside them does. A
/// symbol copy touches the `__device__` variable.
#[test]
fn pitched_copies_and_sets_touch_their_rows_only() {
    for (variant, call) in [
        ("", "cudaMemcpy2DAsync"),
        ("MEMSET", "cudaMemset2DAsync"),
        ("THREED", "cudaMemcpy3DAsync"),
    ] {
        let plain: Vec<&str> = [variant].into_iter().filter(|v| !v.is_empty()).collect();
        assert_none("stream_pitched.cu", &plain);
        let mut inside = plain.clone();
        inside.push("INSIDE");
        let (kernel, line, message) = one("stream_pitched.cu", &inside);
        assert_eq!(kernel, "(program)");
        assert_eq!(line, None);
        assert!(
            message.starts_with(&format!("{call} of 8 rows of 64 bytes on stream 0x")),
            "{message}"
        );
        contains_all(
            &message,
            &[
                "writes byte 0 of the 1024-byte allocation",
                "`pad(char *, int)`",
                "writes (line 18)",
            ],
        );
    }
    let (kernel, _, message) = one("stream_pitched.cu", &["SYMBOL"]);
    assert_eq!(kernel, "(program)");
    contains_all(
        &message,
        &[
            "cudaMemcpyFromSymbolAsync of 256 bytes on stream 0x",
            "reads byte 0 of the __device__ variable `sym`",
            "`pad_sym()`",
            "writes (line 19)",
        ],
    );
}

/// A host function (cudaLaunchHostFunc or cudaStreamAddCallback) is work of its stream: on the
/// legacy default stream it orders two blocking streams' launches.
#[test]
fn a_host_function_orders_its_stream() {
    assert_none("stream_hostfn.cu", &[]);
    assert_none("stream_hostfn.cu", &["CALLBACK"]);
    let (kernel, line, message) = one("stream_hostfn.cu", &["NOHOST"]);
    assert!(kernel.starts_with("get"), "{kernel}");
    assert_eq!(line, Some(18));
    contains_all(&message, &["`put(int *)` on stream 0x", "writes (line 17)"]);
}

/// A footprint cut at its cap is said: a note on the launch, and in the race found against it.
#[test]
fn a_footprint_cut_at_its_cap_is_said() {
    let (v, status) = export_of("stream_cut.cu", &[]);
    assert_eq!(status, 1);
    let launches = v["launches"].as_array().unwrap();
    let notes: Vec<&Value> = launches[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "stream_footprint_cut")
        .collect();
    assert_eq!(notes.len(), 1, "{:#}", launches[0]["findings"]);
    assert_eq!(notes[0]["severity"], "note");
    assert!(
        notes[0]["message"]
            .as_str()
            .unwrap()
            .contains("cut at 1048576 byte intervals"),
        "{}",
        notes[0]["message"]
    );
    assert!(
        launches[1]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["kind"] != "stream_footprint_cut")
    );
    let races: Vec<&Value> = launches[1]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "stream_race")
        .collect();
    assert_eq!(races.len(), 1);
    contains_all(
        races[0]["message"].as_str().unwrap(),
        &[
            "`peek(const int *, int *)`",
            "reads byte 0 of the 8396800-byte allocation",
            "; launch 0 `spread(int *)`'s footprint was cut at 1048576 byte intervals, so races in its later accesses are not reported",
        ],
    );
}

/// A copy to a `__constant__` variable on one stream races with a launch on another that reads
/// the variable's bytes through the constant bank; an event orders them, and a copy into another
/// constant the kernel does not read touches none of its bytes.
#[test]
fn a_constant_copy_races_with_a_kernel_reading_the_constant() {
    assert_none("stream_const.cu", &["ORDERED"]);
    assert_none("stream_const.cu", &["OTHER"]);
    let (kernel, line, message) = one("stream_const.cu", &[]);
    assert_eq!(kernel, "(program)");
    assert_eq!(line, None);
    assert!(
        message.starts_with("cudaMemcpyToSymbolAsync of 16 bytes on stream 0x"),
        "{message}"
    );
    contains_all(
        &message,
        &[
            "writes byte 0 of the __constant__ variable `coef`",
            "`scale(const float *, float *)`",
            "reads (line 17)",
        ],
    );
}

/// A child graph node (`cudaGraphAddChildGraphNode`): the child graph's kernel node is ordered by
/// the parent graph's edges, and an event recorded after the graph launch covers it; without an
/// edge or an event it races (`stream_child_graph.cu`).
#[test]
fn a_child_graphs_nodes_are_ordered_as_the_child_graph_node() {
    // no edge between `fill` and the child graph node: a race within one graph launch
    let (kernel, line, message) = one("stream_child_graph.cu", &[]);
    assert!(kernel.starts_with("scale"), "{kernel}");
    assert_eq!(line, Some(27));
    contains_all(
        &message,
        &[
            "`scale(int *)` (node 2 of graph 0x",
            "which launch 0 `fill(int *, int)` (node 0 of graph 0x",
            "writes (line 24)",
            "and no path of graph 0x",
        ],
    );
    assert_none("stream_child_graph.cu", &["EDGE"]);
    // a kernel on another stream after the graph launch, nothing ordering it: both nodes
    let (found, status) = stream_races("stream_child_graph.cu", &["EDGE", "AFTER"]);
    assert_eq!(status, 1);
    assert_eq!(found.len(), 2, "{found:#?}");
    for ((kernel, line, m), earlier) in found.iter().zip([
        "`fill(int *, int)` (node 0 of graph",
        "`scale(int *)` (node 2 of graph",
    ]) {
        assert!(kernel.starts_with("fill"), "{kernel}");
        assert_eq!(*line, Some(24));
        contains_all(m, &[earlier, "nothing orders the two"]);
    }
    // an event recorded after the graph launch covers the child graph's node too
    assert_none("stream_child_graph.cu", &["EDGE", "AFTER", "EVENT"]);
}

/// A grid launched from the device is part of its host launch in the streams' order: an event
/// recorded after the parent's launch, or the same stream, orders later work after the child;
/// another stream without an event does not, before or after (`stream_devgrid.cu`).
#[test]
fn a_grid_launched_from_the_device_is_ordered_with_its_host_launch() {
    for tail in [&[][..], &["TAIL"]] {
        let (kernel, line, message) = one("stream_devgrid.cu", tail);
        assert!(kernel.starts_with("sum"), "{tail:?}: {kernel}");
        assert_eq!(line, Some(34), "{tail:?}");
        contains_all(
            &message,
            &["`child(int *)`", "writes (line 30)", "nothing orders the two"],
        );
        for d in ["EVENT", "SAME"] {
            let v: Vec<&str> = tail.iter().copied().chain([d]).collect();
            assert_none("stream_devgrid.cu", &v);
        }
    }
    // the reader first on another stream: the child, the later work, races with it
    let (kernel, line, message) = one("stream_devgrid.cu", &["FIRST"]);
    assert!(kernel.starts_with("child"), "{kernel}");
    assert_eq!(line, Some(30));
    contains_all(
        &message,
        &[
            "`sum(const int *, int *)`",
            "reads (line 34)",
            "nothing orders the two",
        ],
    );
}
