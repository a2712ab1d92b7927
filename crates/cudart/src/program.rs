//! What a program file is, before it runs: how it links the CUDA runtime (read from its ELF
//! dynamic section and symbols with the `elf` crate).

use std::path::Path;

/// How a program uses the CUDA runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// It loads `libcudart.so.N` (built with `-cudart shared`): `warpscope run` can replace it.
    Shared(String),
    /// It carries the runtime inside (nvcc's default `-cudart static`).
    Static,
    /// It has no CUDA runtime at all.
    None,
}

/// Reads `path`'s ELF: its `DT_NEEDED` libraries and whether it carries CUDA code.
pub fn linkage(path: &Path) -> Result<Linkage, String> {
    Ok(inspect(path)?.0)
}

/// The libraries `path` loads (its `DT_NEEDED` entries) that need a GPU and that `warpscope run`
/// does not replace: the CUDA driver itself (a program that calls the driver API), and NVIDIA's
/// libraries that carry their own kernels as machine code (cuBLAS, cuFFT, cuRAND, cuSPARSE,
/// cuSOLVER, NPP, nvJPEG, cuDNN, NCCL, cuTENSOR).
pub fn gpu_libraries(path: &Path) -> Result<GpuLibraries, String> {
    let needed = inspect(path)?.1;
    // name stems: `libcublas` covers `libcublasLt`, `libnpp` the `libnppi*` family
    const KERNEL_LIBS: [&str; 11] = [
        "libcublas",
        "libcufft",
        "libcurand",
        "libcusparse",
        "libcusolver",
        "libnpp",
        "libnvjpeg",
        "libcudnn",
        "libnccl",
        "libcutensor",
        "libnvblas",
    ];
    let stem = |n: &str| n.split(".so").next().unwrap_or(n).to_string();
    Ok(GpuLibraries {
        driver: needed.iter().find(|n| stem(n) == "libcuda").cloned(),
        kernels: needed
            .iter()
            .filter(|n| KERNEL_LIBS.iter().any(|k| stem(n).starts_with(k)))
            .cloned()
            .collect(),
    })
}

/// What [`gpu_libraries`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuLibraries {
    /// The CUDA driver library the program loads itself (`libcuda.so.1`), if it does.
    pub driver: Option<String>,
    /// NVIDIA libraries with their own kernels, as named in the program.
    pub kernels: Vec<String>,
}

fn inspect(path: &Path) -> Result<(Linkage, Vec<String>), String> {
    use elf::ElfBytes;
    use elf::endian::AnyEndian;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = ElfBytes::<AnyEndian>::minimal_parse(&bytes)
        .map_err(|e| format!("{}: not an ELF program ({e})", path.display()))?;
    let mut needed = Vec::new();
    if let Ok(Some(dynamic)) = file.dynamic()
        && let Ok(Some((_, strtab))) = file.dynamic_symbol_table()
    {
        for d in dynamic.iter() {
            if d.d_tag == elf::abi::DT_NEEDED
                && let Ok(name) = strtab.get(d.d_val() as usize)
            {
                needed.push(name.to_string());
            }
        }
    }
    if let Some(n) = needed.iter().find(|n| n.starts_with("libcudart.so")) {
        return Ok((Linkage::Shared(n.clone()), needed));
    }
    let has_fatbin = matches!(file.section_header_by_name(".nv_fatbin"), Ok(Some(_)))
        || matches!(file.section_header_by_name("__nv_relfatbin"), Ok(Some(_)))
        || bytes.windows(23).any(|w| w == b"__cudaRegisterFatBinary");
    let linkage = if has_fatbin {
        Linkage::Static
    } else {
        Linkage::None
    };
    Ok((linkage, needed))
}
