//! Finding, loading and calling NVRTC, the CUDA run-time compiler.
//!
//! cudarc opens NVRTC by its soname (`libnvrtc.so.13`, ...) and panics when it cannot. [`Nvrtc::load`]
//! looks in the usual places first, preloads the library it finds with `libloading` (the handle stays
//! alive for the life of the [`Nvrtc`] value), so that cudarc's own `dlopen` by soname finds the same
//! object, and only then lets cudarc call it.
//!
//! Search order ([`candidate_dirs`]): the explicit path; `$CUDA_HOME/lib64`, `$CUDA_PATH/lib64` (and
//! `lib`); each `LD_LIBRARY_PATH` entry; `$WARPSCOPE_CUDA_ROOT/lib`; the `site-packages` of
//! `python3` (`nvidia/cu13/lib`, `nvidia/cuda_nvrtc/lib`); `/usr/local/cuda/lib64`.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Command;

use cudarc::nvrtc::{result as nres, sys as nsys};

use crate::{Error, Result};

/// File names of NVRTC tried in each directory, newest first.
pub const LIB_NAMES: &[&str] = &["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"];

/// Where NVRTC is looked for, from the environment (a value, so tests can build one).
#[derive(Clone, Debug, Default)]
pub struct SearchEnv {
    /// `--nvrtc PATH`: a library file or a directory holding one.
    pub explicit: Option<PathBuf>,
    /// `CUDA_HOME`.
    pub cuda_home: Option<PathBuf>,
    /// `CUDA_PATH`.
    pub cuda_path: Option<PathBuf>,
    /// `LD_LIBRARY_PATH`, unsplit.
    pub ld_library_path: Option<String>,
    /// `WARPSCOPE_CUDA_ROOT`.
    pub warpscope_cuda_root: Option<PathBuf>,
    /// `site-packages` directories of `python3`.
    pub site_packages: Vec<PathBuf>,
}

impl SearchEnv {
    /// Reads the process environment; asks `python3` for its site-packages (absent python is fine).
    pub fn from_process(explicit: Option<PathBuf>) -> Self {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        SearchEnv {
            explicit,
            cuda_home: var("CUDA_HOME"),
            cuda_path: var("CUDA_PATH"),
            ld_library_path: std::env::var("LD_LIBRARY_PATH").ok(),
            warpscope_cuda_root: var("WARPSCOPE_CUDA_ROOT"),
            site_packages: python_site_packages(),
        }
    }
}

fn python_site_packages() -> Vec<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import site,sys;print('\\n'.join(site.getsitepackages()+[site.getusersitepackages()]))",
        ])
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| PathBuf::from(l.trim()))
            .collect(),
        _ => Vec::new(),
    }
}

/// The directories searched, in order (the explicit path comes first if it is a directory).
pub fn candidate_dirs(env: &SearchEnv) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(p) = &env.explicit
        && !p.is_file()
    {
        dirs.push(p.clone());
    }
    for home in [&env.cuda_home, &env.cuda_path].into_iter().flatten() {
        dirs.push(home.join("lib64"));
        dirs.push(home.join("lib"));
    }
    if let Some(ld) = &env.ld_library_path {
        dirs.extend(ld.split(':').filter(|s| !s.is_empty()).map(PathBuf::from));
    }
    if let Some(root) = &env.warpscope_cuda_root {
        dirs.push(root.join("lib"));
    }
    for sp in &env.site_packages {
        dirs.push(sp.join("nvidia/cu13/lib"));
        dirs.push(sp.join("nvidia/cuda_nvrtc/lib"));
    }
    dirs.push(PathBuf::from("/usr/local/cuda/lib64"));
    let mut seen = std::collections::HashSet::new();
    dirs.retain(|d| seen.insert(d.clone()));
    dirs
}

/// The first NVRTC library file found (an explicit file wins), and every place looked at.
pub fn locate(env: &SearchEnv) -> (Option<PathBuf>, Vec<PathBuf>) {
    let mut searched = Vec::new();
    if let Some(p) = &env.explicit
        && p.is_file()
    {
        return (Some(p.clone()), vec![p.clone()]);
    }
    for dir in candidate_dirs(env) {
        for name in LIB_NAMES {
            let f = dir.join(name);
            if f.is_file() {
                return (Some(f), searched);
            }
        }
        searched.push(dir);
    }
    (None, searched)
}

/// A loaded NVRTC. Keep it alive while compiling: it holds the preloaded library.
pub struct Nvrtc {
    _lib: Option<libloading::Library>,
    path: Option<PathBuf>,
    version: (i32, i32),
}

impl std::fmt::Debug for Nvrtc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nvrtc")
            .field("path", &self.path)
            .field("version", &self.version)
            .finish()
    }
}

/// Options for one compilation.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// `--gpu-architecture`: `sm_90` (gives a CUBIN as well as PTX) or `compute_90` (PTX only).
    pub arch: String,
    /// `-lineinfo`.
    pub lineinfo: bool,
    /// `-G` (device debug; implies no optimisation).
    pub debug: bool,
    /// `-maxrregcount=N`.
    pub maxrregcount: Option<u32>,
    /// Optimisation level for `-O` (`3` by default; ignored with `-G`).
    pub opt_level: u8,
    /// Extra options passed as they are.
    pub extra: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            arch: "sm_90".into(),
            lineinfo: true,
            debug: false,
            maxrregcount: None,
            opt_level: 3,
            extra: Vec::new(),
        }
    }
}

impl CompileOptions {
    /// Options for a real architecture `sm_<cc>` (e.g. 90).
    pub fn for_cc(cc: u32) -> Self {
        CompileOptions {
            arch: format!("sm_{cc}"),
            ..Default::default()
        }
    }

    /// The NVRTC option strings.
    pub fn to_args(&self) -> Vec<String> {
        let mut v = vec![format!("--gpu-architecture={}", self.arch)];
        if self.lineinfo && !self.debug {
            v.push("-lineinfo".into());
        }
        if self.debug {
            v.push("-G".into());
        } else {
            v.push(format!("--ptxas-options=-O{}", self.opt_level.min(3)));
        }
        if let Some(r) = self.maxrregcount {
            v.push(format!("--maxrregcount={r}"));
        }
        v.extend(self.extra.iter().cloned());
        v
    }

    /// True when the target is a real `sm_` architecture (a CUBIN is produced).
    pub fn is_real_arch(&self) -> bool {
        self.arch.starts_with("sm_")
    }
}

/// What a compilation produced.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The PTX text.
    pub ptx: String,
    /// The CUBIN, for a real architecture.
    pub cubin: Option<Vec<u8>>,
    /// The compile log (warnings; empty when clean).
    pub log: String,
}

impl Nvrtc {
    /// Finds and loads NVRTC (see the module docs for the order).
    pub fn load(explicit: Option<&Path>) -> Result<Self> {
        Self::load_from(&SearchEnv::from_process(explicit.map(Path::to_path_buf)))
    }

    /// Like [`Nvrtc::load`] with a given search environment. If nothing is found in the listed
    /// places, cudarc's own lookup by soname (the system loader's path) is tried last.
    pub fn load_from(env: &SearchEnv) -> Result<Self> {
        let (found, searched) = locate(env);
        let (lib, path) = match found {
            Some(p) => {
                // SAFETY: loading NVRTC runs its initialisers, which have no preconditions.
                let lib = unsafe { libloading::Library::new(&p) }.map_err(|e| Error::NvrtcLoad {
                    path: p.clone(),
                    reason: e.to_string(),
                })?;
                (Some(lib), Some(p))
            }
            None => {
                if env.explicit.is_some() {
                    return Err(Error::NoNvrtc { searched });
                }
                (None, None)
            }
        };
        // SAFETY: a dlopen probe by name; nothing else is called.
        if !unsafe { nsys::is_culib_present() } {
            return Err(Error::NoNvrtc { searched });
        }
        let (mut major, mut minor) = (0, 0);
        // SAFETY: the library is present (checked above); the out-pointers are valid.
        let r = unsafe { nsys::nvrtcVersion(&mut major, &mut minor) };
        if r != nsys::nvrtcResult::NVRTC_SUCCESS {
            return Err(Error::Nvrtc {
                call: "nvrtcVersion",
                reason: format!("{r:?}"),
            });
        }
        Ok(Nvrtc {
            _lib: lib,
            path,
            version: (major, minor),
        })
    }

    /// The library file loaded (None when the system loader found it by soname).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// NVRTC's version (major, minor).
    pub fn version(&self) -> (i32, i32) {
        self.version
    }

    /// Compiles `src` (named `name` in diagnostics) to PTX, and to CUBIN for a real architecture.
    /// A failure carries the compile log.
    pub fn compile(&self, src: &str, name: &str, opts: &CompileOptions) -> Result<Compiled> {
        let args = opts.to_args();
        let csrc =
            CString::new(src).map_err(|_| Error::Input(format!("{name}: source contains a NUL byte")))?;
        let cname =
            CString::new(name).map_err(|_| Error::Input(format!("{name}: name contains a NUL byte")))?;
        let prog = nres::create_program(&csrc, Some(&cname)).map_err(|e| Error::Nvrtc {
            call: "nvrtcCreateProgram",
            reason: format!("{e:?}"),
        })?;
        let guard = ProgramGuard(prog);
        // SAFETY: `prog` is a live program (destroyed by `guard` on every path).
        let compiled = unsafe { nres::compile_program(prog, &args) };
        // SAFETY: as above.
        let log = unsafe { nres::get_program_log(prog) }
            .map(|v| c_chars_to_string(&v))
            .unwrap_or_default();
        if compiled.is_err() {
            return Err(Error::Compile {
                name: name.into(),
                options: args.join(" "),
                log,
            });
        }
        // SAFETY: compiled successfully, so the PTX exists.
        let ptx = unsafe { nres::get_ptx(prog) }
            .map(|v| c_chars_to_string(&v))
            .map_err(|e| Error::Nvrtc {
                call: "nvrtcGetPTX",
                reason: format!("{e:?}"),
            })?;
        let cubin = if opts.is_real_arch() {
            Some(get_cubin(prog)?)
        } else {
            None
        };
        drop(guard);
        Ok(Compiled { ptx, cubin, log })
    }
}

struct ProgramGuard(nsys::nvrtcProgram);

impl Drop for ProgramGuard {
    fn drop(&mut self) {
        // SAFETY: the program was created by nvrtcCreateProgram and is destroyed once.
        let _ = unsafe { nres::destroy_program(self.0) };
    }
}

fn get_cubin(prog: nsys::nvrtcProgram) -> Result<Vec<u8>> {
    let mut size = 0usize;
    // SAFETY: `prog` is a compiled program; `size` is a valid out-pointer.
    let r = unsafe { nsys::nvrtcGetCUBINSize(prog, &mut size) };
    if r != nsys::nvrtcResult::NVRTC_SUCCESS {
        return Err(Error::Nvrtc {
            call: "nvrtcGetCUBINSize",
            reason: format!("{r:?}"),
        });
    }
    let mut buf = vec![0u8; size];
    // SAFETY: `buf` holds `size` bytes, as nvrtcGetCUBINSize asked for.
    let r = unsafe { nsys::nvrtcGetCUBIN(prog, buf.as_mut_ptr().cast()) };
    if r != nsys::nvrtcResult::NVRTC_SUCCESS {
        return Err(Error::Nvrtc {
            call: "nvrtcGetCUBIN",
            reason: format!("{r:?}"),
        });
    }
    Ok(buf)
}

fn c_chars_to_string(v: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = v.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Parses ptxas's `-v` report lines from a compile log: (registers, spill stores, spill loads).
pub fn parse_ptxas_usage(log: &str) -> Option<(u32, u32, u32)> {
    let num_before = |s: &str, key: &str| -> Option<u32> {
        let i = s.find(key)?;
        s[..i].split_whitespace().last()?.parse().ok()
    };
    let regs = log.lines().find_map(|l| num_before(l, "registers"))?;
    let st = log
        .lines()
        .find_map(|l| num_before(l, "bytes spill stores"))
        .unwrap_or(0);
    let ld = log
        .lines()
        .find_map(|l| num_before(l, "bytes spill loads"))
        .unwrap_or(0);
    Some((regs, st, ld))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_order_follows_the_documented_search() {
        let env = SearchEnv {
            explicit: Some(PathBuf::from("/x/dir")),
            cuda_home: Some(PathBuf::from("/cuda")),
            cuda_path: None,
            ld_library_path: Some("/a::/b".into()),
            warpscope_cuda_root: Some(PathBuf::from("/root13")),
            site_packages: vec![PathBuf::from("/sp")],
        };
        let d = candidate_dirs(&env);
        let s: Vec<String> = d.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(
            s,
            [
                "/x/dir",
                "/cuda/lib64",
                "/cuda/lib",
                "/a",
                "/b",
                "/root13/lib",
                "/sp/nvidia/cu13/lib",
                "/sp/nvidia/cuda_nvrtc/lib",
                "/usr/local/cuda/lib64"
            ]
        );
    }

    #[test]
    fn nothing_found_names_the_fix_and_lists_the_places_when_verbose() {
        let env = SearchEnv {
            explicit: Some(PathBuf::from("/nonexistent/warpscope-test")),
            ..Default::default()
        };
        let (found, searched) = locate(&env);
        assert!(found.is_none());
        assert_eq!(searched[0], PathBuf::from("/nonexistent/warpscope-test"));
        let err = Nvrtc::load_from(&env).unwrap_err();
        assert!(err.is_unavailable());
        let crate::Error::NoNvrtc { searched } = &err else {
            panic!("{err:?}")
        };
        // one sentence and the fix; the places only with --verbose
        let short = crate::error::no_nvrtc(searched, false);
        assert_eq!(
            short,
            "NVRTC (libnvrtc.so) not found: run `warpscope setup` to install it, or pass --nvrtc PATH"
        );
        let long = crate::error::no_nvrtc(searched, true);
        assert!(long.starts_with(&short), "{long}");
        assert!(long.contains("\n  /nonexistent/warpscope-test"), "{long}");
    }

    #[test]
    fn options_map_to_nvrtc_flags() {
        let o = CompileOptions {
            maxrregcount: Some(32),
            ..CompileOptions::for_cc(90)
        };
        assert_eq!(
            o.to_args(),
            [
                "--gpu-architecture=sm_90",
                "-lineinfo",
                "--ptxas-options=-O3",
                "--maxrregcount=32"
            ]
        );
        let g = CompileOptions {
            debug: true,
            ..CompileOptions::for_cc(90)
        };
        assert_eq!(g.to_args(), ["--gpu-architecture=sm_90", "-G"]);
        assert!(
            !CompileOptions {
                arch: "compute_90".into(),
                ..Default::default()
            }
            .is_real_arch()
        );
    }

    #[test]
    fn ptxas_usage_is_read_from_the_log() {
        let log = "ptxas info    : Used 10 registers, used 1 barriers, 4224 bytes smem\n\
                   ptxas         .     0 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n";
        assert_eq!(parse_ptxas_usage(log), Some((10, 8, 12)));
        assert_eq!(parse_ptxas_usage("nothing"), None);
    }
}
