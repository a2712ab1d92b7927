//! Locating a CUDA root: the folder with `bin/ptxas` (and `bin/nvcc`, `include/`, `lib/`).
//!
//! The search ([`candidates`]), first hit wins: `WARPSCOPE_CUDA_ROOT`, `CUDA_HOME`, `CUDA_PATH`,
//! `ptxas` on `PATH`; the CUDA wheels (`site-packages/nvidia/cu13`) of the active Python
//! environment (`VIRTUAL_ENV`, `CONDA_PREFIX`), of the Python prefix this executable is installed
//! in (a `pip install`ed warpscope), of a `.venv-cuda` in the current folder or above it, of the
//! checkout warpscope was built from (its `.venv-cuda`, made by `scripts/cuda-wheels.sh`), of the
//! user cache (`warpscope setup` installs them there: [`user_cuda_dir`]) and of `~/.local`; then
//! `/usr/local/cuda`, then the system Pythons' wheels. `WARPSCOPE_CUDA_SEARCH=env` keeps only the
//! three variables.

use std::path::{Path, PathBuf};

/// The CUDA compiler wheels warpscope uses from PyPI (nvcc, ptxas, NVRTC, the runtime headers,
/// cuobjdump, nvdisasm, the CUDA C++ libraries), as pip requirements. `warpscope setup`,
/// `scripts/cuda-wheels.sh` and the Python package's dependencies install these.
pub const CUDA_WHEELS: &[&str] = &[
    "nvidia-cuda-nvcc~=13.0",
    "nvidia-cuda-nvrtc~=13.0",
    "nvidia-cuda-runtime~=13.0",
    "nvidia-cuda-cuobjdump~=13.0",
    "nvidia-cuda-nvdisasm~=13.0",
    "nvidia-cuda-crt~=13.0",
    "nvidia-nvvm~=13.0",
    "nvidia-cuda-cccl~=13.0",
];

/// The command that installs a CUDA toolkit where warpscope always looks, named by every "not
/// found" message.
pub const SETUP_COMMAND: &str = "warpscope setup";

/// Whether messages should carry their details (the places searched...): `--verbose`, which sets
/// `WARPSCOPE_VERBOSE=1` for this process and the programs it runs.
pub fn verbose() -> bool {
    std::env::var_os("WARPSCOPE_VERBOSE").is_some_and(|v| !v.is_empty() && v != "0")
}

/// warpscope's folder in the user cache: `$XDG_CACHE_HOME/warpscope`, else `~/.cache/warpscope`.
pub fn user_cache_dir(xdg_cache_home: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    xdg_cache_home
        .filter(|p| p.is_absolute())
        .map(|d| d.join("warpscope"))
        .or_else(|| home.map(|h| h.join(".cache").join("warpscope")))
}

/// Where `warpscope setup` installs the CUDA wheels (`pip install --target`): `cuda/` in
/// [`user_cache_dir`]; the CUDA root is then its `nvidia/cu13`.
pub fn user_cuda_dir(xdg_cache_home: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    user_cache_dir(xdg_cache_home, home).map(|d| d.join("cuda"))
}

/// The checkout this crate was built from (the workspace root), when it is one.
fn build_checkout() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join("Cargo.toml")
        .is_file()
        .then(|| root.canonicalize().unwrap_or(root))
}

/// Where a CUDA root was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CudaRoot {
    /// The folder holding `bin/ptxas`.
    pub root: PathBuf,
    /// How it was found (e.g. `WARPSCOPE_CUDA_ROOT`, `PATH`, `pip wheel`).
    pub source: String,
}

impl CudaRoot {
    /// Path of a program in the root's `bin/`.
    pub fn bin(&self, program: &str) -> PathBuf {
        self.root.join("bin").join(program)
    }
}

/// The environment the search reads (so that tests can give their own).
#[derive(Clone, Debug, Default)]
pub struct SearchEnv {
    /// `WARPSCOPE_CUDA_ROOT`.
    pub warpscope_cuda_root: Option<PathBuf>,
    /// `CUDA_HOME`.
    pub cuda_home: Option<PathBuf>,
    /// `CUDA_PATH`.
    pub cuda_path: Option<PathBuf>,
    /// `PATH`, split.
    pub path: Vec<PathBuf>,
    /// `VIRTUAL_ENV`.
    pub virtual_env: Option<PathBuf>,
    /// `CONDA_PREFIX`.
    pub conda_prefix: Option<PathBuf>,
    /// This executable (its Python prefix, `<prefix>/bin/warpscope`, is searched).
    pub exe: Option<PathBuf>,
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// `XDG_CACHE_HOME`.
    pub xdg_cache_home: Option<PathBuf>,
    /// The current directory (its `.venv-cuda` and those of its ancestors are searched).
    pub cwd: Option<PathBuf>,
    /// The checkout warpscope was built from (its `.venv-cuda` is searched).
    pub checkout: Option<PathBuf>,
    /// Search the system's places (`/usr/local/cuda`, the system Pythons' wheels); tests turn it off.
    pub system: bool,
    /// `WARPSCOPE_CUDA_SEARCH=env`: only `WARPSCOPE_CUDA_ROOT`, `CUDA_HOME` and `CUDA_PATH`.
    pub only_env: bool,
}

impl SearchEnv {
    /// Reads the process environment.
    pub fn from_process() -> SearchEnv {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        SearchEnv {
            warpscope_cuda_root: var("WARPSCOPE_CUDA_ROOT"),
            cuda_home: var("CUDA_HOME"),
            cuda_path: var("CUDA_PATH"),
            path: std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).collect())
                .unwrap_or_default(),
            virtual_env: var("VIRTUAL_ENV"),
            conda_prefix: var("CONDA_PREFIX"),
            exe: std::env::current_exe().ok(),
            home: var("HOME"),
            xdg_cache_home: var("XDG_CACHE_HOME"),
            cwd: std::env::current_dir().ok(),
            checkout: build_checkout(),
            system: true,
            only_env: std::env::var_os("WARPSCOPE_CUDA_SEARCH").is_some_and(|v| v == "env"),
        }
    }
}

/// No CUDA root was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFound {
    /// Every folder looked at, in order, with how it came to be looked at.
    pub searched: Vec<(PathBuf, String)>,
}

impl NotFound {
    /// Where the search looked, one `path (why)` per line.
    pub fn details(&self) -> String {
        if self.searched.is_empty() {
            return "  nowhere: WARPSCOPE_CUDA_SEARCH=env, and WARPSCOPE_CUDA_ROOT, CUDA_HOME and CUDA_PATH are not set"
                .into();
        }
        self.searched
            .iter()
            .map(|(p, why)| format!("  {} ({why})", p.display()))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl NotFound {
    /// One sentence and its fix; `verbose`: the places looked at follow, one a line.
    pub fn message(&self, verbose: bool) -> String {
        if verbose {
            format!(
                "no CUDA toolkit found: run `{SETUP_COMMAND}` to install one, or set WARPSCOPE_CUDA_ROOT to a folder with bin/ptxas; looked for bin/ptxas in:\n{}",
                self.details()
            )
        } else {
            format!("no CUDA toolkit found: run `{SETUP_COMMAND}` to install one")
        }
    }
}

/// [`NotFound::message`], verbose under `--verbose` ([`verbose`]).
impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(verbose()))
    }
}

impl std::error::Error for NotFound {}

/// `site-packages/nvidia/cu13` (and `cu12`) folders under a Python prefix (`lib/python3*/`).
fn wheel_roots(prefix: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(prefix.join("lib")) else {
        return out;
    };
    let mut pythons: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("python3"))
        })
        .collect();
    pythons.sort();
    for py in pythons.iter().rev() {
        for site in ["site-packages", "dist-packages"] {
            for cu in ["cu13", "cu12"] {
                out.push(py.join(site).join("nvidia").join(cu));
            }
        }
    }
    out
}

/// The `nvidia/cu13` (and `cu12`) roots of wheels installed with `pip install --target DIR`.
fn target_roots(dir: &Path) -> Vec<PathBuf> {
    ["cu13", "cu12"]
        .iter()
        .map(|cu| dir.join("nvidia").join(cu))
        .collect()
}

/// The Python prefix an executable is installed in (`<prefix>/bin/warpscope`), when it is one.
fn exe_prefix(exe: &Path) -> Option<PathBuf> {
    let exe = exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf());
    let bin = exe.parent()?;
    let prefix = bin.parent()?;
    (bin.file_name()? == "bin" && prefix.join("lib").is_dir()).then(|| prefix.to_path_buf())
}

/// Every candidate root in search order, each with its source (see the module docs), once each.
pub fn candidates(env: &SearchEnv) -> Vec<(PathBuf, String)> {
    let mut c: Vec<(PathBuf, String)> = Vec::new();
    let wheels = |c: &mut Vec<(PathBuf, String)>, prefix: &Path, why: &str| {
        c.extend(
            wheel_roots(prefix)
                .into_iter()
                .map(|p| (p, format!("pip wheel ({why})"))),
        );
    };
    if let Some(p) = &env.warpscope_cuda_root {
        c.push((p.clone(), "WARPSCOPE_CUDA_ROOT".into()));
    }
    if let Some(p) = &env.cuda_home {
        c.push((p.clone(), "CUDA_HOME".into()));
    }
    if let Some(p) = &env.cuda_path {
        c.push((p.clone(), "CUDA_PATH".into()));
    }
    if env.only_env {
        return c;
    }
    for dir in &env.path {
        if let Some(parent) = dir.parent().filter(|_| dir.join("ptxas").is_file()) {
            c.push((parent.to_path_buf(), "PATH".into()));
        }
    }
    if let Some(v) = &env.virtual_env {
        wheels(&mut c, v, "VIRTUAL_ENV");
    }
    if let Some(v) = &env.conda_prefix {
        wheels(&mut c, v, "CONDA_PREFIX");
    }
    if let Some(prefix) = env.exe.as_deref().and_then(exe_prefix) {
        wheels(&mut c, &prefix, "beside this executable");
    }
    if let Some(cwd) = &env.cwd {
        for dir in cwd.ancestors() {
            let venv = dir.join(".venv-cuda");
            if venv.is_dir() {
                wheels(&mut c, &venv, ".venv-cuda");
            }
        }
    }
    if let Some(checkout) = &env.checkout {
        wheels(
            &mut c,
            &checkout.join(".venv-cuda"),
            "the build checkout's .venv-cuda",
        );
    }
    if let Some(dir) = user_cuda_dir(env.xdg_cache_home.as_deref(), env.home.as_deref()) {
        c.extend(
            target_roots(&dir)
                .into_iter()
                .map(|p| (p, SETUP_COMMAND.to_string())),
        );
    }
    if let Some(h) = &env.home {
        wheels(&mut c, &h.join(".local"), "~/.local");
    }
    if env.system {
        c.push((PathBuf::from("/usr/local/cuda"), "/usr/local/cuda".into()));
        for prefix in ["/usr/local", "/usr"] {
            wheels(&mut c, Path::new(prefix), prefix);
        }
    }
    let mut seen = std::collections::HashSet::new();
    c.retain(|(p, _)| seen.insert(p.clone()));
    c
}

/// The first candidate holding `bin/ptxas`.
pub fn find(env: &SearchEnv) -> Result<CudaRoot, NotFound> {
    let all = candidates(env);
    for (root, source) in &all {
        if root.join("bin").join("ptxas").is_file() {
            return Ok(CudaRoot {
                root: root.clone(),
                source: source.clone(),
            });
        }
    }
    Err(NotFound { searched: all })
}

/// [`find`] in this process's environment.
pub fn find_root() -> Result<CudaRoot, NotFound> {
    find(&SearchEnv::from_process())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_root(dir: &Path) {
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/ptxas"), b"").unwrap();
    }

    fn scratch(tag: &str) -> PathBuf {
        let tmp = std::env::temp_dir().join(format!("warpscope-locate-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).unwrap();
        tmp
    }

    #[test]
    fn search_order_and_wheels() {
        let tmp = scratch("order");
        let wheel = tmp.join("proj/.venv-cuda/lib/python3.11/site-packages/nvidia/cu13");
        fake_root(&wheel);
        let env = SearchEnv {
            cwd: Some(tmp.join("proj/sub")),
            ..Default::default()
        };
        std::fs::create_dir_all(tmp.join("proj/sub")).unwrap();
        let found = find(&env).unwrap();
        assert_eq!(found.root, wheel);
        assert!(found.source.contains(".venv-cuda"));

        let explicit = tmp.join("explicit");
        fake_root(&explicit);
        let env2 = SearchEnv {
            warpscope_cuda_root: Some(explicit.clone()),
            ..env.clone()
        };
        assert_eq!(find(&env2).unwrap().root, explicit);

        // from another folder the checkout's .venv-cuda is still found, by the build checkout
        let elsewhere = SearchEnv {
            cwd: Some(tmp.join("elsewhere")),
            checkout: Some(tmp.join("proj")),
            ..Default::default()
        };
        let found = find(&elsewhere).unwrap();
        assert_eq!(found.root, wheel);
        assert_eq!(found.source, "pip wheel (the build checkout's .venv-cuda)");
        // WARPSCOPE_CUDA_SEARCH=env: the variables only
        let only = SearchEnv {
            only_env: true,
            cuda_home: Some(tmp.join("no toolkit")),
            ..elsewhere
        };
        assert_eq!(
            find(&only).unwrap_err().searched,
            vec![(tmp.join("no toolkit"), "CUDA_HOME".to_string())]
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn the_user_cache_and_the_executables_prefix_are_searched() {
        let tmp = scratch("user");
        // `warpscope setup`: pip install --target $XDG_CACHE_HOME/warpscope/cuda
        let setup = tmp.join("xdg/warpscope/cuda/nvidia/cu13");
        fake_root(&setup);
        let env = SearchEnv {
            xdg_cache_home: Some(tmp.join("xdg")),
            home: Some(tmp.join("home")),
            ..Default::default()
        };
        let found = find(&env).unwrap();
        assert_eq!(
            (found.root, found.source.as_str()),
            (setup.clone(), "warpscope setup")
        );
        // without XDG_CACHE_HOME: ~/.cache/warpscope/cuda
        let home_setup = tmp.join("home/.cache/warpscope/cuda/nvidia/cu13");
        fake_root(&home_setup);
        let env = SearchEnv {
            home: Some(tmp.join("home")),
            ..Default::default()
        };
        assert_eq!(find(&env).unwrap().root, home_setup);
        // a pip-installed warpscope: <venv>/bin/warpscope beside <venv>/lib/python3.x/site-packages
        let venv_root = tmp.join("venv/lib/python3.12/site-packages/nvidia/cu13");
        fake_root(&venv_root);
        std::fs::create_dir_all(tmp.join("venv/bin")).unwrap();
        std::fs::write(tmp.join("venv/bin/warpscope"), b"").unwrap();
        let env = SearchEnv {
            exe: Some(tmp.join("venv/bin/warpscope")),
            ..env
        };
        let found = find(&env).unwrap();
        assert_eq!(found.root, venv_root);
        assert_eq!(found.source, "pip wheel (beside this executable)");
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn not_found_is_one_sentence_naming_setup() {
        let tmp = scratch("none");
        let env = SearchEnv {
            cwd: Some(tmp.clone()),
            home: Some(tmp.join("home")),
            warpscope_cuda_root: Some(tmp.join("nothing here")),
            ..Default::default()
        };
        let err = find(&env).unwrap_err();
        let short = err.message(false);
        assert_eq!(
            short,
            "no CUDA toolkit found: run `warpscope setup` to install one"
        );
        let long = err.message(true);
        assert_eq!(long.matches("no CUDA toolkit found").count(), 1, "{long}");
        assert!(long.contains("nothing here (WARPSCOPE_CUDA_ROOT)"), "{long}");
        assert!(
            long.contains(&format!(
                "{} (warpscope setup)",
                tmp.join("home/.cache/warpscope/cuda/nvidia/cu13").display()
            )),
            "{long}"
        );
        // each place once
        let lines: Vec<&str> = long.lines().skip(1).collect();
        let unique: std::collections::HashSet<&&str> = lines.iter().collect();
        assert_eq!(unique.len(), lines.len(), "{long}");
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
