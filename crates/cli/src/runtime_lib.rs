//! Finding warpscope's CUDA runtime, `libwarpscope_cudart.so` (the `warpscope-cudart` crate's
//! cdylib), which `warpscope run` puts first on the program's library path as `libcudart.so.13`.
//!
//! Looked for, first hit wins: `--cudart`, `WARPSCOPE_CUDART`; in the `deps/` folder beside this
//! executable (cargo's freshest copy, where `cargo test` finds it), beside it, one folder up; in `<prefix>/lib/warpscope/`, where
//! the Python package installs it beside `<prefix>/bin/warpscope`; in the user cache's `lib/`,
//! where `warpscope setup` puts the one it builds for a `cargo install`ed warpscope.

use std::path::{Path, PathBuf};

use crate::exit::Unavailable;

/// The library's file name.
pub const NAME: &str = "libwarpscope_cudart.so";

/// The CUDA root to give the program's process as `WARPSCOPE_CUDA_ROOT` (none when it is set
/// already): the root found here. The runtime there disassembles the program's cubins, and its
/// own search would look beside the program, not beside warpscope (a pip-installed warpscope's
/// wheels).
pub fn toolkit_for_program() -> Option<PathBuf> {
    if std::env::var_os("WARPSCOPE_CUDA_ROOT").is_some() {
        return None;
    }
    warpscope_toolchain::locate::find_root().ok().map(|r| r.root)
}

/// The user cache's copy (`warpscope setup`), when there is a user cache.
pub fn user_copy() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    warpscope_toolchain::locate::user_cache_dir(var("XDG_CACHE_HOME").as_deref(), var("HOME").as_deref())
        .map(|d| d.join("lib").join(NAME))
}

/// Every place looked at when no path is given, in order.
pub fn candidates() -> Vec<PathBuf> {
    let mut c = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        // cargo's deps/ copy first: `cargo build -p warpscope` refreshes it, not the one beside
        c.push(dir.join("deps").join(NAME));
        c.push(dir.join(NAME));
        c.push(dir.join("..").join(NAME));
        c.push(dir.join("..").join("lib").join("warpscope").join(NAME));
    }
    c.extend(user_copy());
    c
}

/// The runtime library: `flag`, `WARPSCOPE_CUDART`, else the first of [`candidates`] that exists.
pub fn find(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("WARPSCOPE_CUDART").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let all = candidates();
    if let Some(p) = all.iter().find(|p| p.is_file()) {
        return Ok(p.canonicalize().unwrap_or_else(|_| p.clone()));
    }
    let mut msg = format!(
        "warpscope's CUDA runtime ({NAME}) not found: run `{}` to build it",
        warpscope_toolchain::locate::SETUP_COMMAND
    );
    if warpscope_toolchain::locate::verbose() {
        msg.push_str(", or pass --cudart PATH; looked in:");
        for p in &all {
            msg.push_str(&format!("\n  {}", p.display()));
        }
    }
    Err(anyhow::Error::new(Unavailable(msg)))
}
