//! `warpscope fix` on the tensor-core tile (crates/cli/fixtures/tensor: checked-in PTX, machine code
//! and CUDA source, registers given, so no toolkit is needed): the driver records the ldmatrix and
//! cp.async requests with their forms, and the advice is CuTe's swizzle, shown as index arithmetic
//! and as CuTe writes it; padding is offered for the store-staged tile but not for the
//! cp.async.cg-staged one (padded rows leave the measured LDGSTS.BYPASS rule).

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fix(kernel: &str) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "fix",
            "crates/cli/fixtures/tensor/ldsmTile.ptx",
            "--sass",
            "crates/cli/fixtures/tensor/ldsmTile.sass",
            "--source",
            "crates/cli/fixtures/tensor/ldsmTile.cu",
            "--kernel",
            kernel,
            "--grid",
            "1",
            "--block",
            "128",
            "--arg",
            "buf:8192",
            "--arg",
            "buf:8192:zero",
            "--registers",
            "32",
            "--format",
            "json",
        ])
        .current_dir(repo())
        .env_remove("WARPSCOPE_CUDA_ROOT")
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn kinds(v: &serde_json::Value) -> Vec<(String, u64, u64, u64)> {
    v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["wavefronts_before"].as_u64().unwrap(),
                s["wavefronts_after"].as_u64().unwrap(),
                s["ideal"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn ldmatrix_tiles_get_the_cute_swizzle_from_the_command() {
    let v = fix("ldsmTile");
    assert_eq!(v["arrays"][0]["name"], "tile");
    assert_eq!(
        v["arrays"][0]["cost"],
        serde_json::json!({"wavefronts": 576, "ideal": 128})
    );
    let k = kinds(&v);
    assert!(k.contains(&("swizzle".into(), 576, 128, 128)), "{k:?}");
    assert!(k.contains(&("pad".into(), 576, 128, 128)), "{k:?}");
    let sw = v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "swizzle")
        .unwrap();
    assert_eq!(
        sw["transform"],
        serde_json::json!({"kind": "swizzle", "bits": 3, "base_shift": 4, "shift": 3})
    );
    let after = sw["source"]["after"].as_str().unwrap();
    assert_eq!(
        after,
        "tile[r][c ^ ((r & 7) << 3)] for every tile[r][c]\n\
         CuTe: composition(Swizzle<3,3,3>{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{}) (the swizzle in 2-byte elements)"
    );
    // staged with cp.async.cg: the swizzle first; the padding after it, since the padded rows shift
    // each copied line (LDSM 64 + LDGSTS 168; measured on the H100 with ldsmTilePadded.cu)
    let v = fix("ldsmTileAsync");
    assert_eq!(
        kinds(&v),
        vec![("swizzle".into(), 576, 128, 128), ("pad".into(), 576, 232, 232)]
    );
}
