//! The PTX of relocatable device code (`nvcc -rdc=true`, which dynamic parallelism needs).
//!
//! A program built with `-rdc=true -arch=sm_XX` registers the device-linked cubin alone: its
//! fatbin carries no PTX. nvcc keeps each translation unit's relocatable fatbin, PTX included
//! (`cuobjdump -all -lptx` lists it), in the `__nv_relfatbin` section of the executable or shared
//! library: the runtime finds the file that holds the registered fatbin (`dladdr`), reads that
//! section and takes from it the PTX that defines the module's kernels.

use std::path::{Path, PathBuf};

use crate::fatbin::{self, Kind};

/// The file (executable or shared library) mapped at `addr`, if the dynamic linker knows it.
pub fn object_file(addr: *const u8) -> Option<PathBuf> {
    let mut info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: `dladdr` only reads the address and fills `info`.
    let found = unsafe { libc::dladdr(addr.cast(), &mut info) };
    if found == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated string owned by the dynamic linker.
    let name = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) };
    let name = name.to_str().ok()?;
    // the main program is named as it was started (a relative path, or none)
    let exe = std::fs::read_link("/proc/self/exe").ok();
    if name.is_empty() {
        return exe;
    }
    let p = PathBuf::from(name);
    if p.exists() { Some(p) } else { exe }
}

/// Every PTX text in the `__nv_relfatbin` section of ELF file `path` (none: the section is absent).
pub fn relocatable_ptx(path: &Path) -> Result<Vec<String>, String> {
    use elf::ElfBytes;
    use elf::endian::AnyEndian;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = ElfBytes::<AnyEndian>::minimal_parse(&bytes)
        .map_err(|e| format!("{}: not an ELF file ({e})", path.display()))?;
    let Some(sh) = file
        .section_header_by_name("__nv_relfatbin")
        .map_err(|e| format!("{}: {e}", path.display()))?
    else {
        return Ok(Vec::new());
    };
    let (data, _) = file
        .section_data(&sh)
        .map_err(|e| format!("{}: __nv_relfatbin: {e}", path.display()))?;
    let mut out = Vec::new();
    let mut p = 0usize;
    // the section holds fatbin blobs one after another, each on an 8-byte boundary
    while p + 16 <= data.len() {
        match fatbin::blob_size(&data[p..]) {
            Ok(size) => {
                let entries = fatbin::parse(&data[p..])
                    .map_err(|e| format!("{}: __nv_relfatbin: {e}", path.display()))?;
                out.extend(
                    entries
                        .iter()
                        .filter(|e| e.kind == Kind::Ptx)
                        .map(fatbin::ptx_text),
                );
                p += size.max(8).next_multiple_of(8);
            }
            Err(_) => p += 8,
        }
    }
    Ok(out)
}

/// Of the PTX texts, the one that defines the most of `kernels` (at least one), if any. The device
/// runtime's own kernels (`libcudadevrt`'s, the linked program registers them too; their names
/// carry its file name, `cuda_device_runtime`) do not count.
pub fn ptx_for<'a>(texts: &'a [String], kernels: &[&str]) -> Option<&'a String> {
    let kernels: Vec<&str> = kernels
        .iter()
        .copied()
        .filter(|k| !k.contains("cuda_device_runtime"))
        .collect();
    texts
        .iter()
        .map(|t| {
            let defined = kernels
                .iter()
                .filter(|k| {
                    t.match_indices(*k).any(|(i, _)| {
                        t[..i].trim_end().ends_with(".entry")
                            && t[i + k.len()..].starts_with(|c: char| c == '(' || c.is_whitespace())
                    })
                })
                .count();
            (defined, t)
        })
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, _)| *n)
        .map(|(_, t)| t)
}

/// The PTX to emulate for relocatable device code whose registered kernels are `kernels`: every
/// translation unit of `texts` that defines one of them, with the units that define what those
/// declare `.extern` (an `extern __device__` function or variable of another `.cu` file), and
/// theirs in turn, linked into one text ([`warpscope_ptx::link::link`]); one such unit is
/// returned as it is. The device runtime's own unit (`cuda_device_runtime`) is never taken: its
/// calls are the emulator's. `None`: no unit defines one of the kernels; an error: the units do
/// not link (the reason).
pub fn linked_ptx(texts: &[String], kernels: &[&str]) -> Option<Result<String, String>> {
    let user: Vec<usize> = (0..texts.len())
        .filter(|&k| !texts[k].contains("cuda_device_runtime"))
        .collect();
    let syms: Vec<_> = texts.iter().map(|t| warpscope_ptx::link::symbols(t)).collect();
    let mut take: Vec<usize> = user
        .iter()
        .copied()
        .filter(|&k| kernels.iter().any(|n| syms[k].0.contains(*n)))
        .collect();
    if take.is_empty() {
        return ptx_for(texts, kernels).map(|t| Ok(t.clone()));
    }
    let mut i = 0;
    while i < take.len() {
        let wants: Vec<String> = syms[take[i]].1.iter().cloned().collect();
        for w in wants {
            if let Some(&k) = user
                .iter()
                .find(|&&k| !take.contains(&k) && syms[k].0.contains(&w))
            {
                take.push(k);
            }
        }
        i += 1;
    }
    take.sort_unstable();
    let units: Vec<&str> = take.iter().map(|&k| texts[k].as_str()).collect();
    Some(
        warpscope_ptx::link::link(&units)
            .map_err(|e| format!("the translation units of relocatable device code do not link: {e}")),
    )
}

#[cfg(test)]
mod tests {
    use super::{linked_ptx, ptx_for};

    #[test]
    fn the_unit_that_defines_the_kernels_is_chosen() {
        let user = ".visible .entry _Z6parentPi(\n.param .u64 p\n)\n{ ret; }\n.visible .entry _Z5childPi(\n.param .u64 p\n)\n{ ret; }".to_string();
        // the device runtime's own unit: its kernels are registered too, and outnumber the user's
        let devrt = (0..5)
            .map(|i| format!(".entry __nv_static_51_cuda_device_runtime_cu_k{i}(\n)\n{{ ret; }}\n"))
            .collect::<String>();
        // a unit that only mentions the kernel (a call, a comment) does not define it
        let other = "// _Z6parentPi\n.visible .entry _Z5otherv()\n{ ret; }".to_string();
        let texts = vec![devrt.clone(), other.clone(), user.clone()];
        let mut kernels = vec!["_Z6parentPi", "_Z5childPi"];
        kernels.extend((0..5).map(|i| {
            [
                "__nv_static_51_cuda_device_runtime_cu_k0",
                "__nv_static_51_cuda_device_runtime_cu_k1",
                "__nv_static_51_cuda_device_runtime_cu_k2",
                "__nv_static_51_cuda_device_runtime_cu_k3",
                "__nv_static_51_cuda_device_runtime_cu_k4",
            ][i]
        }));
        assert_eq!(ptx_for(&texts, &kernels), Some(&user));
        assert_eq!(ptx_for(&texts, &["_Z5otherv"]), Some(&other));
        assert_eq!(ptx_for(&texts, &["_Z7missingv"]), None);
        assert_eq!(
            ptx_for(&[devrt], &["__nv_static_51_cuda_device_runtime_cu_k0"]),
            None
        );
    }

    #[test]
    fn units_declaring_externs_pull_in_the_units_that_define_them() {
        let head = ".version 9.5\n.target sm_90\n.address_size 64\n";
        let main = format!(
            "{head}.extern .func (.param .b32 r) f\n(\n.param .b32 x\n)\n;\n.visible .entry k()\n{{\n.reg .b32 %r<2>;\n{{\n.param .b32 p;\n.param .b32 rv;\nst.param.b32 [p+0], 1;\ncall.uni (rv), f, (p);\nld.param.b32 %r1, [rv+0];\n}}\nret;\n}}\n"
        );
        let ops = format!(
            "{head}.extern .global .align 4 .b8 g[4];\n.visible .func (.param .b32 r) f(\n.param .b32 x\n)\n{{\n.reg .b32 %r<2>;\nld.global.u32 %r1, [g];\nst.param.b32 [r+0], %r1;\nret;\n}}\n"
        );
        let state = format!("{head}.visible .global .align 4 .b8 g[4];\n");
        let unrelated = format!("{head}.visible .entry other()\n{{\nret;\n}}\n");
        let devrt = format!("{head}.visible .global .align 4 .b8 g[4];\n// cuda_device_runtime\n");
        let texts = vec![devrt, unrelated, state.clone(), ops.clone(), main.clone()];
        let linked = linked_ptx(&texts, &["k"]).unwrap().unwrap();
        assert!(!linked.contains("other()"), "{linked}");
        assert!(!linked.contains("cuda_device_runtime"), "{linked}");
        assert!(linked.contains(".visible .global .align 4 .b8 g[4];"), "{linked}");
        assert!(linked.contains(".visible .func (.param .b32 r) f("), "{linked}");
        let p = warpscope_ptx::compile(&linked).unwrap_or_else(|e| panic!("{e:?}\n{linked}"));
        assert_eq!(p.kernels.len(), 1);
        // one unit alone: as it is
        assert_eq!(linked_ptx(&texts, &["other"]).unwrap().unwrap(), texts[1]);
        assert!(linked_ptx(&texts, &["missing"]).is_none());
    }
}
