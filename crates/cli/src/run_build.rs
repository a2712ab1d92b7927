//! `warpscope run app.cu`: the program built first with the toolkit's nvcc.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::exit::Unavailable;

/// `run`'s flags that reach nvcc: `-I` folders and `-D` definitions.
pub struct Flags<'a> {
    pub include_dirs: &'a [PathBuf],
    pub defines: &'a [String],
}

/// Builds `app.cu` with the toolkit's nvcc as the field notes do, linked against warpscope's
/// runtime (`-cudart shared`); again with `-rdc=true -lcudadevrt` when nvcc says its kernels
/// launch kernels.
pub fn build_cu(src: &Path, dir: &Path, arch: &str, args: &Flags<'_>) -> anyhow::Result<PathBuf> {
    match build_cu_with(src, dir, arch, args, false) {
        // kernels launching kernels (dynamic parallelism) need relocatable device code and the
        // device runtime, as nvcc says
        Err(e) if e.to_string().contains("requires separate compilation mode") => {
            build_cu_with(src, dir, arch, args, true)
        }
        r => r,
    }
}

fn build_cu_with(src: &Path, dir: &Path, arch: &str, args: &Flags<'_>, rdc: bool) -> anyhow::Result<PathBuf> {
    let root = warpscope_toolchain::locate::find_root()
        .map_err(|e| anyhow::Error::new(Unavailable(format!("cannot build {}: {e}", src.display()))))?;
    let nvcc = root.bin("nvcc");
    let out = dir.join(src.file_stem().unwrap_or_default());
    let mut cmd = Command::new(&nvcc);
    cmd.args(["-O2", &format!("-arch={arch}"), "-lineinfo", "-cudart", "shared"])
        .arg(format!("-L{}", dir.display()))
        .args(args.include_dirs.iter().map(|d| format!("-I{}", d.display())))
        .args(args.defines.iter().map(|d| format!("-D{d}")))
        .arg("-o")
        .arg(&out)
        .arg(src);
    let cccl = root.root.join("include").join("cccl");
    if cccl.is_dir() {
        cmd.arg(format!("-I{}", cccl.display()));
    }
    if rdc {
        cmd.arg("-rdc=true").arg("-lcudadevrt");
    }
    let o = crate::child::output(&mut cmd, std::process::Stdio::piped())
        .with_context(|| format!("cannot run {}", nvcc.display()))?;
    if !o.status.success() {
        bail!(
            "{}: nvcc failed:\n{}",
            src.display(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    Ok(out)
}
