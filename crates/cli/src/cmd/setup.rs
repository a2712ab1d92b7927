//! `warpscope setup`: makes `warpscope run app.cu` and `warpscope analyze K.cu` work from any
//! folder. It installs the CUDA compiler wheels from PyPI (nvcc, ptxas, NVRTC, cuobjdump,
//! nvdisasm; no GPU needed) with pip into the user cache (`~/.cache/warpscope/cuda`), where every
//! warpscope looks, unless a CUDA toolkit is found already; and, for a warpscope installed by
//! `cargo install`, builds its CUDA runtime (`libwarpscope_cudart.so`) from the checkout it was
//! built from into the user cache's `lib/`.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, bail};

use crate::exit::Unavailable;
use warpscope_toolchain::locate::{CUDA_WHEELS, CudaRoot, find_root, user_cuda_dir};

/// Flags of `warpscope setup`.
#[derive(clap::Args)]
pub struct Args {
    /// Install the CUDA wheels into the user cache even when a CUDA toolkit is found elsewhere
    /// (pip upgrades them when they are there already).
    #[arg(long)]
    force: bool,
    /// Say where the CUDA toolkit and the runtime are found; install and build nothing (exit
    /// status 1 when one is missing).
    #[arg(long)]
    check: bool,
    /// The Python whose pip installs the wheels (default: the `python3` beside this executable,
    /// as in a virtual environment, else `python3` on PATH).
    #[arg(long, value_name = "PATH")]
    python: Option<PathBuf>,
}

/// The programs a complete root has (`run` needs nvcc and nvdisasm, binaries cuobjdump).
const TOOLS: &[&str] = &["ptxas", "nvcc", "nvdisasm", "cuobjdump"];

fn missing_tools(root: &CudaRoot) -> Vec<&'static str> {
    TOOLS.iter().copied().filter(|t| !root.bin(t).is_file()).collect()
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let found = find_root().ok();
    let complete = found.as_ref().filter(|r| missing_tools(r).is_empty());
    let cuda = match complete {
        Some(root) if !args.force => {
            println!("CUDA tools: {} (found by {})", root.root.display(), root.source);
            Some(root.clone())
        }
        _ if args.check => {
            match &found {
                Some(r) => println!(
                    "CUDA tools: {} lacks {}",
                    r.root.display(),
                    missing_tools(r).join(", ")
                ),
                None => println!("CUDA tools: none found"),
            }
            None
        }
        _ => Some(install_wheels(args.python.as_deref())?),
    };
    let runtime = match crate::runtime_lib::find(None) {
        Ok(p) => {
            println!("runtime: {}", p.display());
            Some(p)
        }
        Err(_) if args.check => {
            println!("runtime: {} not found", crate::runtime_lib::NAME);
            None
        }
        Err(_) => Some(build_runtime()?),
    };
    if cuda.is_none() || runtime.is_none() {
        return Err(anyhow::Error::new(Unavailable(
            "not set up: run `warpscope setup` without --check".into(),
        )));
    }
    println!("ready: `warpscope run app.cu` and `warpscope analyze K.cu` work from any folder");
    Ok(ExitCode::SUCCESS)
}

/// The Python to run pip with.
fn python(flag: Option<&Path>) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join("python3")))
        .filter(|p| p.is_file());
    beside.unwrap_or_else(|| PathBuf::from("python3"))
}

/// `pip install --target <user cache>/cuda` of the CUDA wheels; the root found afterwards.
fn install_wheels(flag: Option<&Path>) -> anyhow::Result<CudaRoot> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let Some(target) = user_cuda_dir(var("XDG_CACHE_HOME").as_deref(), var("HOME").as_deref()) else {
        return Err(anyhow::Error::new(Unavailable(
            "no user cache folder: set HOME or XDG_CACHE_HOME".into(),
        )));
    };
    let py = python(flag);
    let pip_works = Command::new(&py)
        .args(["-m", "pip", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !pip_works {
        return Err(anyhow::Error::new(Unavailable(format!(
            "cannot run `{} -m pip`: install Python's pip (for example `apt install python3-pip`), or pass --python PATH",
            py.display()
        ))));
    }
    std::fs::create_dir_all(&target).with_context(|| format!("cannot create {}", target.display()))?;
    eprintln!(
        "warpscope setup: installing the CUDA compiler wheels from PyPI into {} (no GPU needed; a few hundred MB)",
        target.display()
    );
    let status = Command::new(&py)
        .env("PIP_ROOT_USER_ACTION", "ignore")
        .args([
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--quiet",
            "--upgrade",
            "--target",
        ])
        .arg(&target)
        .args(CUDA_WHEELS)
        .status()
        .with_context(|| format!("cannot run {}", py.display()))?;
    if !status.success() {
        return Err(anyhow::Error::new(Unavailable(format!(
            "pip could not install the CUDA wheels into {} ({status})",
            target.display()
        ))));
    }
    let root = CudaRoot {
        root: target.join("nvidia").join("cu13"),
        source: warpscope_toolchain::locate::SETUP_COMMAND.into(),
    };
    let missing = missing_tools(&root);
    if !missing.is_empty() {
        bail!(
            "the CUDA wheels are installed, but {} lacks {}",
            root.root.display(),
            missing.join(", ")
        );
    }
    println!("CUDA tools: {} (installed)", root.root.display());
    // an earlier place in the search (a variable, an environment's wheels) still comes first
    if let Ok(first) = find_root()
        && first.root != root.root
    {
        println!(
            "note: {} (found by {}) comes first in the search",
            first.root.display(),
            first.source
        );
    }
    Ok(root)
}

/// The checkout this executable was built from, when it still exists.
fn checkout() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join("crates/cudart/Cargo.toml")
        .is_file()
        .then(|| root.canonicalize().unwrap_or(root))
}

/// Builds `libwarpscope_cudart.so` from the checkout with cargo (its own target folder, so that
/// what it built already is reused) and copies it into the user cache's `lib/`.
fn build_runtime() -> anyhow::Result<PathBuf> {
    let Some(dest) = crate::runtime_lib::user_copy() else {
        return Err(anyhow::Error::new(Unavailable(
            "no user cache folder: set HOME or XDG_CACHE_HOME".into(),
        )));
    };
    let Some(checkout) = checkout() else {
        return Err(anyhow::Error::new(Unavailable(format!(
            "{} is neither beside this executable nor buildable (the checkout it was built from is gone): reinstall warpscope (pip install, or cargo install --path crates/cli then `warpscope setup`)",
            crate::runtime_lib::NAME
        ))));
    };
    eprintln!(
        "warpscope setup: building {} in {} (cargo build --release -p warpscope-cudart; minutes on a first build)",
        crate::runtime_lib::NAME,
        checkout.display()
    );
    let out = Command::new("cargo")
        .args([
            "build",
            "--release",
            "-p",
            "warpscope-cudart",
            "--message-format=json-render-diagnostics",
        ])
        .current_dir(&checkout)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| anyhow::Error::new(Unavailable(format!("cannot run cargo: {e}"))))?;
    if !out.status.success() {
        bail!(
            "cargo could not build {} ({})",
            crate::runtime_lib::NAME,
            out.status
        );
    }
    // the cdylib's path, from cargo's own report of what it made
    let built = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter_map(|m| m["filenames"].as_array().cloned())
        .flatten()
        .filter_map(|f| f.as_str().map(PathBuf::from))
        .find(|f| f.file_name().is_some_and(|n| n == crate::runtime_lib::NAME))
        .with_context(|| format!("cargo built no {}", crate::runtime_lib::NAME))?;
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // a new file, then renamed over the old one: a program running the old one keeps it
    let tmp = dest.with_extension(format!("so.{}", std::process::id()));
    std::fs::copy(&built, &tmp)
        .with_context(|| format!("cannot copy {} to {}", built.display(), tmp.display()))?;
    std::fs::rename(&tmp, &dest).with_context(|| format!("cannot write {}", dest.display()))?;
    println!("runtime: {} (built)", dest.display());
    Ok(dest)
}
