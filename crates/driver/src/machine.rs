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
use crate::input::{Scratch, cuda_root, run_tool};

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
            recon: Arc::new(Reconciliation::build(program, kernel, &machine_accesses(&k))),
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
    Ok(Reconciliation::build(program, kernel, &machine_accesses(&k)))
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
        None => {
            // ptxas's cubin is cached by the PTX, the architecture and the ptxas (and its
            // disassembly, by `disassemble`, by the cubin).
            let ptxas = root.bin("ptxas");
            let key = Key::of(&[
                b"ptxas -O3 -lineinfo",
                arch.as_bytes(),
                &tool_identity(&ptxas),
                ptx.as_bytes(),
            ]);
            let bytes = Cache::from_env().get_or("cubin", key, || {
                let ptx_path = dir.0.join("k.ptx");
                std::fs::write(&ptx_path, ptx).map_err(|e| e.to_string())?;
                run_tool(
                    Command::new(&ptxas)
                        .arg(format!("-arch={arch}"))
                        .args(["-O3", "-lineinfo", "-o"])
                        .arg(&cubin_path)
                        .arg(&ptx_path),
                    "ptxas",
                )?;
                std::fs::read(&cubin_path).map_err(|e| e.to_string())
            })?;
            std::fs::write(&cubin_path, bytes).map_err(|e| e.to_string())?;
        }
    }
    let sass = warpscope_toolchain::sass::disassemble(&nvdisasm, &cubin_path).map_err(|e| e.to_string())?;
    Ok((sass, format!("ptxas + nvdisasm from {}", root.root.display())))
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
    let root = cuda_root()?;
    let dir = Scratch::new("res").map_err(|e| e.to_string())?;
    let p = dir.0.join("k.ptx");
    std::fs::write(&p, ptx).map_err(|e| e.to_string())?;
    let ks =
        warpscope_toolchain::resources::resource_usage(&root, &p, arch.cc()).map_err(|e| e.to_string())?;
    warpscope_toolchain::resources::select(&ks, kernel, &p)
        .map(|k| Resources {
            registers: k.registers,
            static_smem: k.smem,
            barriers: k.barriers,
        })
        .map_err(|e| e.to_string())
}
