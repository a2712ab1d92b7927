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
