//! A decoupled look-back's shape (tests/data/spintot.cu, written for this test): warp 0 spins on
//! its predecessor's status word by `__any_sync`, then every warp reads `int warpTot[8]`, declared
//! after a 4-byte `tileId`. ptxas keeps `warpTot` at byte 4 and reads the eight words on aligned
//! addresses: `LDS.128 [R2]` (`tileId` and `warpTot[0..3]`), `LDS.128 [R2+0x10]` and
//! `LDS [R2+0x20]` (`cuobjdump -sass` of the program built with `nvcc -O2 -arch=sm_90`). The line
//! is counted with the machine code's three loads a warp (2, 2 and 1 wavefronts: a broadcast, as
//! the H200 counted them for calibration/run/bench17 `lookback`), not dropped as an unaligned
//! request.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

#[test]
fn a_warp_totals_read_after_a_look_back_spin_is_counted_as_the_machine_codes_three_loads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "analyze",
            "crates/cli/tests/data/spintot.cu",
            "--grid",
            "4",
            "--block",
            "256",
            "-a",
            "buf:4096",
            "-a",
            "buf:4096:zero",
            "-a",
            "buf:32:zero",
            "-a",
            "buf:4:zero",
            "--format",
            "json",
        ])
        .current_dir(&root)
        .output()
        .expect("run warpscope");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(v["unmodelled_requests"], 0);
    let line = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["line"] == 24 && l["side"] == "load")
        .expect("the warpTot line's loads");
    // 4 blocks x 8 warps, two LDS.128 and one LDS each
    assert_eq!(line["instructions"], 96);
    assert_eq!(line["wavefronts"], 160);
}
