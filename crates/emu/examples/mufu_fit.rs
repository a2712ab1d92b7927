//! Writes the `MUFU` models the emulator ships fitted (`crates/emu/data/NAME.fit.zst`): each
//! measured table (`crates/emu/data/NAME.zst`) fitted segment by segment as `mufu/table.rs`
//! describes, compressed with the `zstd` command (level 19). Run after changing a measured table
//! or the fitting:
//!
//!     cargo run --release -p warpscope-emu --example mufu_fit
//!
//! The unit test `compact_tables_reproduce_every_measured_entry` checks that the shipped files
//! are these models and that they give every measured entry.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    for (name, bytes) in warpscope_emu::mufu::fitted_models() {
        let raw = data.join(format!("{name}.fit"));
        std::fs::write(&raw, &bytes).unwrap_or_else(|e| panic!("{}: {e}", raw.display()));
        let z = data.join(format!("{name}.fit.zst"));
        let ok = Command::new("zstd")
            .args(["-19", "-q", "-f", "--rm"])
            .arg(&raw)
            .arg("-o")
            .arg(&z)
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            ok,
            "zstd -19 {} failed (is the zstd command installed?)",
            raw.display()
        );
        let size = std::fs::metadata(&z).map(|m| m.len()).unwrap_or(0);
        println!("{}: {} bytes ({} uncompressed)", z.display(), size, bytes.len());
    }
}
