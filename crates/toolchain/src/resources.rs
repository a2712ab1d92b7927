//! A kernel's resource usage from ptxas's verbose report (`ptxas -v`, `nvcc -Xptxas -v`):
//!
//! ```text
//! ptxas info    : Compiling entry function '_Z1kPi' for 'sm_90'
//! ptxas info    : Function properties for _Z1kPi
//!     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//! ptxas info    : Used 10 registers, used 1 barriers, 4224 bytes smem, 360 bytes cmem[0]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::locate::CudaRoot;

/// What ptxas reports for one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct KernelResources {
    /// The (mangled) entry name.
    pub name: String,
    /// The target, e.g. `sm_90`.
    pub arch: String,
    /// Registers per thread.
    pub registers: u32,
    /// Named barriers used.
    pub barriers: u32,
    /// Static shared memory, bytes.
    pub smem: u32,
    /// Stack frame, bytes.
    pub stack: u32,
    /// Spill stores, bytes.
    pub spill_stores: u32,
    /// Spill loads, bytes.
    pub spill_loads: u32,
    /// Constant memory per bank: (bank, bytes).
    pub cmem: Vec<(u32, u32)>,
}

/// Errors of running the toolchain.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is neither `.cu` nor `.ptx`.
    #[error("{path}: expected a .cu or .ptx file")]
    Extension {
        /// The file.
        path: PathBuf,
    },
    /// The input file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The program could not be started.
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program.
        program: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The program failed (compile error, unsupported architecture...).
    #[error("{program} failed on {path} ({status}):\n{stderr}")]
    Failed {
        /// The program.
        program: String,
        /// The input.
        path: PathBuf,
        /// Exit status.
        status: String,
        /// What it printed.
        stderr: String,
    },
    /// No kernel of that name in the report.
    #[error("{path}: no kernel named `{name}`; kernels: {available}")]
    NoKernel {
        /// The input.
        path: PathBuf,
        /// The name asked for.
        name: String,
        /// The kernels found.
        available: String,
    },
    /// Several kernels match the name.
    #[error("{path}: `{name}` matches several kernels ({matches}); give the mangled name")]
    Ambiguous {
        /// The input.
        path: PathBuf,
        /// The name asked for.
        name: String,
        /// The kernels that match.
        matches: String,
    },
}

fn number_before(text: &str, unit: &str) -> Option<u32> {
    let i = text.find(unit)?;
    text[..i].split_whitespace().last()?.parse().ok()
}

/// Parses a verbose ptxas report into one entry per kernel, in report order.
pub fn parse_report(text: &str) -> Vec<KernelResources> {
    let mut out: Vec<KernelResources> = Vec::new();
    for line in text.lines() {
        let body = line.split_once(':').map_or(line, |(head, rest)| {
            if head.trim_start().starts_with("ptxas") {
                rest
            } else {
                line
            }
        });
        let body = body.trim();
        if let Some(rest) = body.strip_prefix("Compiling entry function '") {
            let (name, tail) = rest.split_once('\'').unwrap_or((rest, ""));
            let arch = tail.split('\'').nth(1).unwrap_or("").to_string();
            out.push(KernelResources {
                name: name.to_string(),
                arch,
                ..Default::default()
            });
        } else if body.contains("bytes stack frame") {
            if let Some(k) = out.last_mut() {
                k.stack = number_before(body, "bytes stack frame").unwrap_or(0);
                k.spill_stores = number_before(body, "bytes spill stores").unwrap_or(0);
                k.spill_loads = number_before(body, "bytes spill loads").unwrap_or(0);
            }
        } else if let Some(rest) = body.strip_prefix("Used ")
            && let Some(k) = out.last_mut()
        {
            for part in rest.split(',') {
                let part = part.trim();
                if part.ends_with("registers") {
                    k.registers = number_before(part, "registers").unwrap_or(0);
                } else if part.ends_with("barriers") {
                    k.barriers = number_before(part, "barriers").unwrap_or(0);
                } else if part.ends_with("bytes smem") {
                    k.smem = number_before(part, "bytes smem").unwrap_or(0);
                } else if let Some(i) = part.find("bytes cmem[") {
                    let bytes = part[..i].trim().parse().unwrap_or(0);
                    let bank = part[i + "bytes cmem[".len()..]
                        .trim_end_matches(']')
                        .parse()
                        .unwrap_or(0);
                    k.cmem.push((bank, bytes));
                }
            }
        }
    }
    out
}

/// Picks the kernel called `name`: the exact (mangled) name, else the one whose Itanium-mangled name
/// starts with `_Z<len><name>` (any parameters, any template arguments).
pub fn select<'a>(
    kernels: &'a [KernelResources],
    name: &str,
    path: &Path,
) -> Result<&'a KernelResources, Error> {
    if let Some(k) = kernels.iter().find(|k| k.name == name) {
        return Ok(k);
    }
    let prefix = format!("_Z{}{}", name.len(), name);
    let hits: Vec<&KernelResources> = kernels.iter().filter(|k| k.name.starts_with(&prefix)).collect();
    match hits.as_slice() {
        [one] => Ok(one),
        [] => Err(Error::NoKernel {
            path: path.to_path_buf(),
            name: name.to_string(),
            available: kernels
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }),
        many => Err(Error::Ambiguous {
            path: path.to_path_buf(),
            name: name.to_string(),
            matches: many
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// Compiles `file` (`.cu` with nvcc, `.ptx` with ptxas) for `sm_<cc>` and returns every kernel's
/// resource usage.
pub fn resource_usage(root: &CudaRoot, file: &Path, cc: u32) -> Result<Vec<KernelResources>, Error> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !matches!(ext, "cu" | "ptx") {
        return Err(Error::Extension {
            path: file.to_path_buf(),
        });
    }
    std::fs::metadata(file).map_err(|source| Error::Read {
        path: file.to_path_buf(),
        source,
    })?;
    // A PTX file is the whole input, so its report is cached by content (a `.cu` may include
    // headers, so it is compiled every time).
    let text = if ext == "ptx"
        && let Ok(bytes) = std::fs::read(file)
    {
        let ptxas = root.bin("ptxas");
        let key = crate::cache::Key::of(&[
            b"ptxas -v",
            format!("sm_{cc}").as_bytes(),
            &crate::cache::tool_identity(&ptxas),
            &bytes,
        ]);
        let out = crate::cache::Cache::from_env().get_or("ptxas-v", key, || {
            run_report(root, file, cc, ext).map(String::into_bytes)
        })?;
        String::from_utf8_lossy(&out).into_owned()
    } else {
        run_report(root, file, cc, ext)?
    };
    Ok(parse_report(&text))
}

/// Runs nvcc or ptxas with `-v` on `file` and returns what it printed.
fn run_report(root: &CudaRoot, file: &Path, cc: u32, ext: &str) -> Result<String, Error> {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out_dir = std::env::temp_dir().join(format!("warpscope-ptxas-{}-{seq}", std::process::id()));
    std::fs::create_dir_all(&out_dir).map_err(|source| Error::Read {
        path: out_dir.clone(),
        source,
    })?;
    let cubin = out_dir.join("out.cubin");
    let arch = format!("sm_{cc}");
    let (program, mut cmd) = if ext == "cu" {
        let p = root.bin("nvcc");
        let mut c = Command::new(&p);
        c.arg(format!("-arch={arch}"))
            .arg("-cubin")
            .arg("-Xptxas")
            .arg("-v");
        (p, c)
    } else {
        let p = root.bin("ptxas");
        let mut c = Command::new(&p);
        let arch = match std::fs::read_to_string(file) {
            Ok(ptx) => crate::ptxas_arch(&ptx, &arch),
            Err(_) => arch,
        };
        c.arg(format!("-arch={arch}")).arg("-v");
        (p, c)
    };
    cmd.arg("-o").arg(&cubin).arg(file);
    // nvcc finds its helpers (cicc, ptxas, fatbinary) through PATH.
    let mut path = vec![root.root.join("bin")];
    if let Some(p) = std::env::var_os("PATH") {
        path.extend(std::env::split_paths(&p));
    }
    if let Ok(joined) = std::env::join_paths(path) {
        cmd.env("PATH", joined);
    }
    let output = cmd.output().map_err(|source| Error::Spawn {
        program: program.clone(),
        source,
    })?;
    let _ = std::fs::remove_dir_all(&out_dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if !output.status.success() {
        return Err(Error::Failed {
            program: program.display().to_string(),
            path: file.to_path_buf(),
            status: output.status.to_string(),
            stderr: text,
        });
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5spillILi300EEvPf' for 'sm_75'
ptxas info    : Function properties for _Z5spillILi300EEvPf
    1200 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 72 registers, used 0 barriers, 1200 bytes cumulative stack size, 360 bytes cmem[0], 2392 bytes cmem[2]
ptxas info    : Compile time = 484.999 ms
ptxas info    : Compiling entry function '_Z1kPi' for 'sm_75'
ptxas info    : Function properties for _Z1kPi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 4224 bytes smem, 360 bytes cmem[0]
";

    #[test]
    fn parses_the_report() {
        let ks = parse_report(REPORT);
        assert_eq!(ks.len(), 2);
        assert_eq!(ks[0].name, "_Z5spillILi300EEvPf");
        assert_eq!(ks[0].arch, "sm_75");
        assert_eq!(
            (
                ks[0].registers,
                ks[0].stack,
                ks[0].spill_stores,
                ks[0].spill_loads
            ),
            (72, 1200, 8, 12)
        );
        assert_eq!(ks[0].cmem, vec![(0, 360), (2, 2392)]);
        assert_eq!((ks[1].registers, ks[1].barriers, ks[1].smem), (10, 1, 4224));
        let p = Path::new("k.cu");
        assert_eq!(select(&ks, "k", p).unwrap().name, "_Z1kPi");
        assert_eq!(select(&ks, "spill", p).unwrap().registers, 72);
        assert_eq!(select(&ks, "_Z1kPi", p).unwrap().smem, 4224);
        let e = select(&ks, "nope", p).unwrap_err().to_string();
        assert!(e.contains("k.cu") && e.contains("_Z1kPi"), "{e}");
    }
}
