//! `cudaMalloc3DArray` was refused as not supported (calibration/run/bench15/volray.cu, a volume
//! renderer sampling a 3-D array through `tex3D`, stopped at it). Own program data/array3d.cu: a
//! 5 x 3 x 2 float array filled by `cudaMemcpy3D` (extent in elements), patched at an array
//! position with a host position in bytes, sampled by `tex3D` at every texel centre, one row copied
//! back; a box past the last slice and a depth without a height are `cudaErrorInvalidValue` (1), a
//! layered array is refused as not supported (801).

use std::process::Command;

mod support;
use support::{cuda_root, repo};

#[test]
fn a_3d_array_is_copied_and_sampled_texel_for_texel() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "crates/cli/tests/data/array3d.cu"])
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{printed}{said}");
    // texel (x, y, z) holds 100 + (z * 3 + y) * 5 + x, but for (1, 1, 1) = 7 and (2, 1, 1) = 8
    let mut want: Vec<String> = (0..30).map(|i| (100 + i).to_string()).collect();
    want[(3 + 1) * 5 + 1] = "7".into();
    want[(3 + 1) * 5 + 2] = "8".into();
    let samples = format!("samples {}", want.join(" "));
    for line in [
        "malloc 0",
        "copy in 0",
        "patch 0",
        "past the end 1",
        samples.as_str(),
        "copy out 0: 120 7 8 123 124",
        "depth without height 1",
        "layered 801",
        "free 0",
    ] {
        assert!(printed.lines().any(|l| l == line), "{line}: {printed}");
    }
    assert!(
        said.contains("cudaMalloc3DArray of a layered, cube-map, gather, sparse or deferred-mapping array is not supported yet"),
        "{said}"
    );
}
