//! One front door (the driver): every command that emulates a kernel takes the same input kinds
//! (`.cu` with `-I`/`-D`, `.ptx`, a fatbinary carrying PTX, an nvcc object file) and the same launch flags, names template
//! kernels as written (`blockSum<256>`), launches a kernel that takes a struct by value, groups the
//! racy reduction's findings into three rows that fit 80 columns, and writes SARIF.
//!
//! The `.ptx` and fatbinary inputs are made from the test's own `.cu` by the CUDA toolkit (nvcc,
//! fatbinary; `WARPSCOPE_CUDA_ROOT` or the PyPI wheels): without them these tests fail, saying so.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/driver")
        .join(rel)
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpscope-front-door-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn cuda_bin(tool: &str) -> PathBuf {
    let root = warpscope_toolchain::locate::find(&warpscope_toolchain::locate::SearchEnv::from_process())
        .unwrap_or_else(|e| {
            panic!("these tests need the CUDA toolkit or wheels (./scripts/cuda-wheels.sh): {e}")
        });
    let p = root.bin(tool);
    assert!(p.exists(), "no {tool} in {}", root.root.display());
    p
}

fn ok(cmd: &mut Command, what: &str) {
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The input kinds of `shapes.cu`: the `.cu` itself (with its flags), its PTX by nvcc, a fatbinary
/// holding that PTX, and nvcc's object file. Each with the extra flags it needs.
fn inputs() -> Vec<(&'static str, PathBuf, Vec<String>)> {
    let dir = scratch("inputs");
    let cu = data("shapes.cu");
    let inc = data("inc");
    let ptx = dir.join("shapes.ptx");
    ok(
        Command::new(cuda_bin("nvcc"))
            .args(["-arch=sm_90", "-O3", "-lineinfo", "-ptx", "-DTILE=32", "-I"])
            .arg(&inc)
            .arg("-o")
            .arg(&ptx)
            .arg(&cu),
        "nvcc -ptx",
    );
    let fatbin = dir.join("shapes.fatbin");
    ok(
        Command::new(cuda_bin("fatbinary"))
            .arg(format!("--create={}", fatbin.display()))
            .arg("--64")
            .arg(format!("--image3=kind=ptx,sm=90,file={}", ptx.display())),
        "fatbinary",
    );
    // An object file as nvcc builds it for an executable: host code with the fatbinary (machine code
    // and PTX for sm_90) embedded.
    let object = dir.join("shapes.o");
    ok(
        Command::new(cuda_bin("nvcc"))
            .args(["-arch=sm_90", "-O3", "-lineinfo", "-c", "-DTILE=32", "-I"])
            .arg(&inc)
            .arg("-o")
            .arg(&object)
            .arg(&cu),
        "nvcc -c",
    );
    let cu_flags = vec![
        "-I".to_string(),
        inc.display().to_string(),
        "-D".to_string(),
        "TILE=32".to_string(),
        "--std".to_string(),
        "c++17".to_string(),
    ];
    vec![
        ("cu", cu, cu_flags),
        ("ptx", ptx, vec![]),
        ("fatbin", fatbin, vec![]),
        ("object", object, vec![]),
    ]
}

fn warpscope(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

const BLOCK_SUM_256: &str = "_Z8blockSumILi256EEvPKfPf";
const BLOCK_SUM_128: &str = "_Z8blockSumILi128EEvPKfPf";

/// The launch flags, the same for every command.
fn launches() -> Vec<(&'static str, Vec<String>)> {
    vec![
        (
            "blockSum<256>",
            s(&[
                "--kernel",
                "blockSum<256>",
                "--grid",
                "2",
                "--block",
                "256",
                "--arg",
                "buf:2048",
                "--arg",
                "buf:8:zero",
            ]),
        ),
        (
            "blockSum<128>",
            s(&[
                "--kernel",
                "blockSum<128>(float const*, float*)",
                "--grid",
                "2",
                "--block",
                "128",
                "--arg",
                "buf:1024",
                "--arg",
                "buf:8:zero",
            ]),
        ),
        (
            "scaledTranspose",
            s(&[
                "--kernel",
                "scaledTranspose",
                "--grid",
                "2,2",
                "--block",
                "32,32",
                "--arg",
                "buf:16384",
                "--arg",
                "buf:16384:zero",
                "--arg",
                "struct:i32:64,i32:64,f32:2.0",
            ]),
        ),
    ]
}

#[test]
fn every_command_takes_every_input_kind_with_the_same_launch_flags() {
    let out = scratch("cmds");
    let mut wavefronts: Vec<(String, String, u64, u64)> = Vec::new();
    for (kind, file, flags) in inputs() {
        for (name, launch) in launches() {
            for cmd in ["analyze", "check", "fix", "report"] {
                let mut args = vec![cmd.to_string(), file.display().to_string()];
                args.extend(flags.iter().cloned());
                args.extend(launch.iter().cloned());
                match cmd {
                    "report" => args.extend([
                        "--output".into(),
                        out.join(format!("{kind}.html")).display().to_string(),
                    ]),
                    _ => args.extend(s(&["--format", "json"])),
                }
                let o = warpscope(&args);
                let what = format!("{cmd} {kind} {name}");
                assert!(
                    o.status.success(),
                    "{what}: {:?} {}",
                    o.status,
                    String::from_utf8_lossy(&o.stderr)
                );
                if cmd == "report" {
                    let html = std::fs::read_to_string(out.join(format!("{kind}.html"))).unwrap();
                    assert!(html.contains("warpscope report: "), "{what}");
                    continue;
                }
                let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{what}: {e}"));
                let want = match name {
                    "blockSum<256>" => BLOCK_SUM_256,
                    "blockSum<128>" => BLOCK_SUM_128,
                    _ => "_Z15scaledTransposePKfPf4Dims",
                };
                assert_eq!(v["kernel"], want, "{what}");
                match cmd {
                    "check" => assert_eq!(v["errors"], 0, "{what}: {}", v["findings"]),
                    "analyze" => {
                        let ld = v["shared"]["load"]["wavefronts"].as_u64().unwrap();
                        let ideal = v["shared"]["load"]["ideal_wavefronts"].as_u64().unwrap();
                        wavefronts.push((kind.into(), name.into(), ld, ideal));
                        assert_eq!(v["hazards"]["errors"], 0, "{what}");
                        assert!(
                            v["occupancy"]["registers"].as_u64().is_some(),
                            "{what}: {}",
                            v["section_notes"]
                        );
                    }
                    "fix" => {
                        // arrays by their source names, template kernels' included
                        let array = if name == "scaledTranspose" { "tile" } else { "s" };
                        assert_eq!(v["arrays"][0]["name"], array, "{what}: {}", v["arrays"]);
                        let conflicts = name == "scaledTranspose";
                        assert_eq!(
                            !v["suggestions"].as_array().unwrap().is_empty(),
                            conflicts,
                            "{what}"
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    // The transpose's column read through the struct's dimensions: a 32-way conflict, whatever the
    // input kind; the reductions are conflict-free.
    for (kind, name, ld, ideal) in &wavefronts {
        if name == "scaledTranspose" {
            assert_eq!(*ld, 32 * *ideal, "{kind}: {wavefronts:?}");
            assert_eq!(*ideal, 4 * 32, "{kind}: 4 blocks x 32 warps x 1 load");
        } else {
            assert_eq!(ld, ideal, "{kind} {name}");
        }
    }
    for name in ["blockSum<256>", "blockSum<128>", "scaledTranspose"] {
        let per_kind: Vec<_> = wavefronts
            .iter()
            .filter(|w| w.1 == name)
            .map(|w| (w.2, w.3))
            .collect();
        assert_eq!(per_kind.len(), 4);
        assert!(per_kind.windows(2).all(|p| p[0] == p[1]), "{name}: {per_kind:?}");
    }
}

fn stderr_of(args: &[String]) -> (i32, String) {
    let o = warpscope(args);
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn names_headers_and_struct_sizes_fail_clearly() {
    let cu = data("shapes.cu").display().to_string();
    let inc = data("inc").display().to_string();
    let base = |extra: &[&str]| {
        let mut v = s(&["check", &cu, "--grid", "1", "--block", "256"]);
        v.extend(s(extra));
        v
    };
    // A template kernel by its plain name is ambiguous: both instantiations are listed demangled.
    let (code, e) = stderr_of(&base(&["-I", &inc, "-D", "TILE=32", "--kernel", "blockSum"]));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("`blockSum` names 2 kernels"), "{e}");
    assert!(
        e.contains("blockSum<256>(float const*, float*)")
            && e.contains("blockSum<128>(float const*, float*)"),
        "{e}"
    );
    // An unknown name lists every kernel.
    let (code, e) = stderr_of(&base(&["-I", &inc, "-D", "TILE=32", "--kernel", "blockSum<64>"]));
    assert_eq!(code, 2, "{e}");
    assert!(
        e.contains("no kernel `blockSum<64>`") && e.contains("scaledTranspose(float const*, float*, Dims)"),
        "{e}"
    );
    // Without -I the header is missing, and the compiler's message names it.
    let (code, e) = stderr_of(&base(&["-D", "TILE=32"]));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("tile_math.cuh"), "{e}");
    // Without -D the header's #error says what to do.
    let (code, e) = stderr_of(&base(&["-I", &inc]));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("compile with -D TILE"), "{e}");
    // A struct of the wrong size names the parameter and both sizes.
    let (code, e) = stderr_of(&base(&[
        "-I",
        &inc,
        "-D",
        "TILE=32",
        "--kernel",
        "scaledTranspose",
        "--arg",
        "buf:64",
        "--arg",
        "buf:64",
        "--arg",
        "struct:i32:64,i32:64",
    ]));
    assert_eq!(code, 2, "{e}");
    assert!(
        e.contains("8 bytes given for parameter") && e.contains("takes 12 bytes"),
        "{e}"
    );
    // A struct field of an unknown type.
    let (code, e) = stderr_of(&base(&[
        "-I",
        &inc,
        "-D",
        "TILE=32",
        "--kernel",
        "scaledTranspose",
        "--arg",
        "buf:64",
        "--arg",
        "buf:64",
        "--arg",
        "struct:int:64",
    ]));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("unknown type `int`"), "{e}");
    // A .cubin carries no PTX: the error says so.
    let dir = scratch("cubin");
    let ptx = dir.join("k.ptx");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/seeds/sqRowCol.ptx"),
        &ptx,
    )
    .unwrap();
    let cubin = dir.join("k.cubin");
    ok(
        Command::new(cuda_bin("ptxas"))
            .args(["-arch=sm_90", "-o"])
            .arg(&cubin)
            .arg(&ptx),
        "ptxas",
    );
    let (code, e) = stderr_of(&s(&[
        "analyze",
        cubin.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "32,32",
        "--arg",
        "buf:4096",
    ]));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("carries no PTX"), "{e}");
}

fn racy(format: &str) -> (i32, String) {
    let o = warpscope(&s(&[
        "check",
        data("racy_reduce.cu").to_str().unwrap(),
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:512",
        "--arg",
        "buf:8:zero",
        "--format",
        format,
    ]));
    (o.status.code().unwrap(), String::from_utf8(o.stdout).unwrap())
}

#[test]
fn racy_reduction_is_three_rows_in_80_columns() {
    let (code, table) = racy("table");
    assert_eq!(code, 1, "{table}");
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with(['|', '+'])).collect();
    assert!(rows.iter().all(|l| l.chars().count() <= 80), "{table}");
    let kinds: Vec<&str> = rows
        .iter()
        .filter_map(|l| l.split('|').nth(2).map(str::trim))
        .filter(|k| !k.is_empty() && *k != "kind")
        .collect();
    assert_eq!(kinds, ["race", "race", "uninitialized_read"], "{table}");
    insta::assert_snapshot!("racy_reduce_table", table);

    let (_, json) = racy("json");
    let v: Value = serde_json::from_str(&json).unwrap();
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3, "{groups:#?}");
    let race_warps: Vec<bool> = groups
        .iter()
        .filter(|g| g["kind"] == "race")
        .map(|g| g["same_warp"].as_bool().unwrap())
        .collect();
    assert_eq!(
        race_warps,
        [false, true],
        "one cross-warp race, one within thread 0's warp"
    );
    // Every finding is in exactly one group, and the counts add up.
    let findings = v["findings"].as_array().unwrap();
    assert!(findings.len() > 3, "the full list stays in JSON");
    let members: usize = groups
        .iter()
        .map(|g| g["members"].as_array().unwrap().len())
        .sum();
    assert_eq!(members, findings.len());
    let count: u64 = findings.iter().map(|f| f["count"].as_u64().unwrap()).sum();
    assert_eq!(
        count,
        groups.iter().map(|g| g["count"].as_u64().unwrap()).sum::<u64>()
    );
    // Thread 0 reads words 32..63 before warp 1 wrote them: bytes 128..252.
    let uninit = &groups[2];
    assert_eq!(uninit["kind"], "uninitialized_read");
    assert_eq!(uninit["bytes"], serde_json::json!([128, 252]));
}

#[test]
fn sarif_has_the_shape_code_scanning_reads() {
    let (code, text) = racy("sarif");
    assert_eq!(code, 1, "findings still fail the run");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "warpscope");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        assert!(rules.contains(&id), "{id}");
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize], id);
        assert_eq!(r["level"], "error");
        assert!(
            r["message"]["text"].as_str().unwrap().contains("racyReduce"),
            "{r}"
        );
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri.ends_with("tests/data/driver/racy_reduce.cu"), "{uri}");
        // Relative to the directory warpscope ran in (this test's), so a CI job's checkout finds it.
        assert!(!uri.starts_with('/') && Path::new(uri).exists(), "{uri}");
        let line = loc["region"]["startLine"].as_u64().unwrap();
        assert!(line == 9 || line == 13, "{line}");
    }
}
