//! Locating a CUDA root: the folder with `bin/ptxas` (and `bin/nvcc`, `include/`, `lib/`).

use std::path::{Path, PathBuf};

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
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// The current directory (its `.venv-cuda` and those of its ancestors are searched).
    pub cwd: Option<PathBuf>,
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
            home: var("HOME"),
            cwd: std::env::current_dir().ok(),
        }
    }
}

/// No CUDA root was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFound {
    /// Every folder looked at, in order.
    pub searched: Vec<PathBuf>,
}

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no CUDA toolkit found (looked for bin/ptxas in: {}); install one, or `pip install nvidia-cuda-nvcc` \
             and set WARPSCOPE_CUDA_ROOT to its site-packages/nvidia/cu13",
            self.searched
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
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

/// Every candidate root in search order, each with its source.
pub fn candidates(env: &SearchEnv) -> Vec<(PathBuf, String)> {
    let mut c: Vec<(PathBuf, String)> = Vec::new();
    if let Some(p) = &env.warpscope_cuda_root {
        c.push((p.clone(), "WARPSCOPE_CUDA_ROOT".into()));
    }
    if let Some(p) = &env.cuda_home {
        c.push((p.clone(), "CUDA_HOME".into()));
    }
    if let Some(p) = &env.cuda_path {
        c.push((p.clone(), "CUDA_PATH".into()));
    }
    for dir in &env.path {
        if let Some(parent) = dir.parent().filter(|_| dir.join("ptxas").is_file()) {
            c.push((parent.to_path_buf(), "PATH".into()));
        }
    }
    c.push((PathBuf::from("/usr/local/cuda"), "/usr/local/cuda".into()));
    if let Some(v) = &env.virtual_env {
        c.extend(
            wheel_roots(v)
                .into_iter()
                .map(|p| (p, "pip wheel (VIRTUAL_ENV)".into())),
        );
    }
    if let Some(cwd) = &env.cwd {
        for dir in cwd.ancestors() {
            let venv = dir.join(".venv-cuda");
            if venv.is_dir() {
                c.extend(
                    wheel_roots(&venv)
                        .into_iter()
                        .map(|p| (p, "pip wheel (.venv-cuda)".into())),
                );
            }
        }
    }
    if let Some(h) = &env.home {
        c.extend(
            wheel_roots(&h.join(".local"))
                .into_iter()
                .map(|p| (p, "pip wheel (~/.local)".into())),
        );
    }
    for prefix in ["/usr/local", "/usr"] {
        c.extend(
            wheel_roots(Path::new(prefix))
                .into_iter()
                .map(|p| (p, format!("pip wheel ({prefix})"))),
        );
    }
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
    Err(NotFound {
        searched: all.into_iter().map(|(p, _)| p).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_root(dir: &Path) {
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/ptxas"), b"").unwrap();
    }

    #[test]
    fn search_order_and_wheels() {
        let tmp = std::env::temp_dir().join(format!("warpscope-locate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
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

        let none = SearchEnv {
            cwd: Some(tmp.join("elsewhere")),
            ..Default::default()
        };
        // This machine may have a real toolkit or system-wide wheels; if not, the error lists the search.
        if let Err(err) = find(&none) {
            assert!(err.to_string().contains("/usr/local/cuda"), "{err}");
            assert!(err.searched.iter().any(|p| p.ends_with("cuda")));
        }
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
