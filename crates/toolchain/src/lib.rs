//! warpscope-toolchain: finds a CUDA toolkit (or the PyPI wheels) and runs its programs (ptxas, nvcc,
//! nvdisasm, cuobjdump), parsing what they print.
//!
//! * [`locate`]: where the CUDA root is (`WARPSCOPE_CUDA_ROOT`, `CUDA_HOME`, `CUDA_PATH`, `ptxas` on
//!   `PATH`, `/usr/local/cuda`, pip wheels under a Python's `site-packages/nvidia/cu13`).
//! * [`resources`]: a kernel's registers, shared memory, spills, barriers and constant memory from
//!   ptxas's resource report, for the occupancy calculator.
//! * [`sass`]: the shared-memory instructions (widths, addresses, source lines) of `nvdisasm` output.
//! * [`cache`]: the on-disk cache of what the tools print, keyed by a hash of the tool and its input.
//!
//! Invariant: this crate only runs programs and reads what they print; it never loads CUDA libraries
//! and needs no GPU.
#![deny(missing_docs)]

pub mod cache;
pub mod locate;
pub mod resources;
pub mod sass;

/// The architecture ptxas builds `ptx` for when asked for `arch`: the PTX's own `.target` where it
/// names an architecture-specific variant of `arch` (`sm_90a` for `sm_90`: what Triton and
/// `nvcc -arch=sm_90a` emit, and what ptxas refuses to build for plain `sm_90`), else `arch`.
pub fn ptxas_arch(ptx: &str, arch: &str) -> String {
    let target = ptx
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|t| t.split([',', ' ', '\t']).find(|s| !s.is_empty()));
    match target {
        Some(t) if t.len() == arch.len() + 1 && t.starts_with(arch) && t.ends_with(['a', 'f']) => {
            t.to_string()
        }
        _ => arch.to_string(),
    }
}

#[cfg(test)]
mod arch_tests {
    use super::ptxas_arch;

    #[test]
    fn an_arch_specific_target_is_built_for_itself() {
        let ptx = |t: &str| format!(".version 8.7\n.target {t}\n.address_size 64\n");
        assert_eq!(ptxas_arch(&ptx("sm_90a"), "sm_90"), "sm_90a");
        assert_eq!(ptxas_arch(&ptx("sm_100f"), "sm_100"), "sm_100f");
        assert_eq!(ptxas_arch(&ptx("sm_90"), "sm_90"), "sm_90");
        assert_eq!(ptxas_arch(&ptx("sm_80"), "sm_90"), "sm_90");
        assert_eq!(ptxas_arch(&ptx("sm_90a, debug"), "sm_90"), "sm_90a");
        // another architecture's variant is not taken
        assert_eq!(ptxas_arch(&ptx("sm_89a"), "sm_90"), "sm_90");
        assert_eq!(ptxas_arch("no target", "sm_90"), "sm_90");
    }
}
