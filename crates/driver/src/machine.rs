//! The machine code of a kernel and what it changes: ptxas fuses neighbouring shared accesses into
//! wider ones, so the bank analysis counts accesses as the machine code makes them
//! ([`Reconciliation`]); and ptxas's resource report (registers, static shared memory) for the
//! occupancy. Without a toolkit the widths are PTX-level and [`Widths::note`] says why.

use std::process::Command;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;
use warpscope_toolchain::cache::{Cache, Key, tool_identity};

use crate::error::{Error, Result};
use crate::input::{Scratch, cuda_root};

/// How shared accesses are counted, and why.
#[derive(Clone, Debug)]
pub struct Widths {
    /// PTX accesses matched with the machine code's (or PTX-level).
    pub recon: Arc<Reconciliation>,
    /// Where the widths come from, in words (the tool, or why there is none).
    pub note: String,
    /// The kernel's machine code, when read (its branches give the branch counters).
    pub sass: Option<Arc<warpscope_toolchain::sass::SassKernel>>,
}

impl Widths {
    /// PTX-level widths, for the reason given.
    pub fn ptx_level(note: impl Into<String>) -> Widths {
        Widths {
            recon: Arc::new(Reconciliation::ptx_level()),
            note: note.into(),
            sass: None,
        }
    }

    /// Widths from `nvdisasm -g -c` (or `cuobjdump -sass`) text; `from` says where it came from.
    pub fn from_sass(program: &Program, kernel: &str, sass: &str, from: impl Into<String>) -> Result<Widths> {
        let k = sass_kernel(kernel, sass)?;
        Ok(Widths {
            recon: Arc::new(
                Reconciliation::build(program, kernel, &machine_accesses(&k))
                    .with_atomic_forms(program, kernel, &k)
                    .with_sunk_loads(program, kernel, &k)
                    .with_copy_predicates(program, kernel, &k),
            ),
            note: from.into(),
            sass: Some(Arc::new(k)),
        })
    }

    /// True when the widths are the machine code's.
    pub fn machine_code(&self) -> bool {
        self.recon.machine_code
    }
}

/// Reconciliation of `kernel`'s PTX accesses with the machine code in `sass` (`nvdisasm -g -c`).
pub fn reconcile_from_sass(program: &Program, kernel: &str, sass: &str) -> Result<Reconciliation> {
    let k = sass_kernel(kernel, sass)?;
    Ok(Reconciliation::build(program, kernel, &machine_accesses(&k))
        .with_atomic_forms(program, kernel, &k)
        .with_sunk_loads(program, kernel, &k)
        .with_copy_predicates(program, kernel, &k))
}

/// `kernel` in the disassembly `sass`.
fn sass_kernel(kernel: &str, sass: &str) -> Result<warpscope_toolchain::sass::SassKernel> {
    let kernels = warpscope_toolchain::sass::parse_disassembly(sass)
        .map_err(|e| Error::input(format!("cannot read the machine code: {e}")))?;
    kernels
        .into_iter()
        .find(|k| k.name == kernel)
        .ok_or_else(|| Error::input(format!("the machine code has no kernel `{kernel}`")))
}

/// Machine code through ptxas + nvdisasm (of `cubin` when given, else of `ptx` built for `arch`),
/// and how it was made; or the reason why there is none.
pub fn machine_code(
    ptx: &str,
    cubin: Option<&[u8]>,
    arch: &str,
) -> std::result::Result<(String, String), String> {
    let root = cuda_root()?;
    let nvdisasm = root.bin("nvdisasm");
    if !nvdisasm.exists() {
        return Err(format!("no nvdisasm in {}", root.root.display()));
    }
    let dir = Scratch::new("sass").map_err(|e| e.to_string())?;
    let cubin_path = dir.0.join("k.cubin");
    match cubin {
        Some(bytes) => std::fs::write(&cubin_path, bytes).map_err(|e| e.to_string())?,
        None => std::fs::write(&cubin_path, ptxas(ptx, arch)?.0).map_err(|e| e.to_string())?,
    }
    let sass = warpscope_toolchain::sass::disassemble(&nvdisasm, &cubin_path).map_err(|e| e.to_string())?;
    Ok((sass, format!("ptxas + nvdisasm from {}", root.root.display())))
}

/// ptxas's cubin of `ptx` for `arch` and its resource report (`-v`), from one run of ptxas: both
/// are cached by the PTX, the architecture and the ptxas (the cubin's disassembly, by
/// `disassemble`, by the cubin), so the machine code and the occupancy's registers of one module
/// cost one ptxas run, not two.
fn ptxas(ptx: &str, arch: &str) -> std::result::Result<(Vec<u8>, String), String> {
    let root = cuda_root()?;
    let ptxas = root.bin("ptxas");
    let id = tool_identity(&ptxas);
    let key = |what: &[u8]| Key::of(&[what, arch.as_bytes(), &id, ptx.as_bytes()]);
    let (cubin_key, report_key) = (key(b"ptxas -O3 -lineinfo"), key(b"ptxas -v -O3 -lineinfo"));
    // this process's runs first (the on-disk cache may be off), then the on-disk cache
    type Built = (Vec<u8>, String);
    static RUNS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<Key, Built>>> =
        std::sync::OnceLock::new();
    let runs = RUNS.get_or_init(Default::default);
    if let Some(built) = runs.lock().ok().and_then(|m| m.get(&cubin_key).cloned()) {
        return Ok(built);
    }
    let cache = Cache::from_env();
    if let (Some(cubin), Some(report)) = (cache.get("cubin", cubin_key), cache.get("ptxas-v", report_key)) {
        return Ok((cubin, String::from_utf8_lossy(&report).into_owned()));
    }
    let dir = Scratch::new("ptxas").map_err(|e| e.to_string())?;
    let (ptx_path, cubin_path) = (dir.0.join("k.ptx"), dir.0.join("k.cubin"));
    std::fs::write(&ptx_path, ptx).map_err(|e| e.to_string())?;
    let out = Command::new(&ptxas)
        .arg(format!("-arch={}", warpscope_toolchain::ptxas_arch(ptx, arch)))
        .args(["-v", "-O3", "-lineinfo", "-o"])
        .arg(&cubin_path)
        .arg(&ptx_path)
        .output()
        .map_err(|e| format!("cannot run ptxas: {e}"))?;
    // the report (`ptxas info : Used N registers ...`) is on stderr, with any warnings
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(format!("ptxas failed: {}", report.trim()));
    }
    let cubin = std::fs::read(&cubin_path).map_err(|e| e.to_string())?;
    cache.put("cubin", cubin_key, &cubin);
    cache.put("ptxas-v", report_key, report.as_bytes());
    if let Ok(mut m) = runs.lock() {
        m.insert(cubin_key, (cubin.clone(), report.clone()));
    }
    Ok((cubin, report))
}

/// Where the widths should come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum WidthsFrom {
    /// The machine code when a toolkit is found, else PTX-level (said in the note).
    #[default]
    Auto,
    /// PTX-level, by request.
    PtxLevel,
    /// `nvdisasm -g -c` output given as text, with where it came from.
    Sass {
        /// The disassembly.
        text: String,
        /// Its origin (a file name).
        from: String,
    },
}

/// The widths for `kernel` of a module (`ptx`, and the compiler's `cubin` if any), as `from` asks.
pub fn widths(
    program: &Program,
    kernel: &str,
    ptx: &str,
    cubin: Option<&[u8]>,
    arch: &Arch,
    from: &WidthsFrom,
) -> Result<Widths> {
    match from {
        WidthsFrom::PtxLevel => Ok(Widths::ptx_level("widths are PTX-level (--ptx-widths)")),
        WidthsFrom::Sass { text, from } => {
            Widths::from_sass(program, kernel, text, format!("machine code from {from}"))
        }
        WidthsFrom::Auto => match machine_code(ptx, cubin, arch.name) {
            Ok((sass, how)) => Widths::from_sass(program, kernel, &sass, format!("machine code by {how}")),
            Err(why) => Ok(Widths::ptx_level(format!("widths are PTX-level: {why}"))),
        },
    }
}

/// Registers and shared memory from ptxas.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Resources {
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory bytes.
    pub static_smem: u32,
    /// Named barriers.
    pub barriers: u32,
}

/// ptxas's resource report of `kernel` in `ptx` for `arch`, or why there is none.
pub fn resources(ptx: &str, kernel: &str, arch: &Arch) -> std::result::Result<Resources, String> {
    let (_, report) = ptxas(ptx, arch.name)?;
    let ks = warpscope_toolchain::resources::parse_report(&report);
    warpscope_toolchain::resources::select(&ks, kernel, std::path::Path::new("k.ptx"))
        .map(|k| Resources {
            registers: k.registers,
            static_smem: k.smem,
            barriers: k.barriers,
        })
        .map_err(|e| e.to_string())
}
