//! How findings name an instruction: the user's source line (through code inlined from CUDA's
//! headers), the file's base name, or the PTX line.

use warpscope_analysis::hazards::Loc;
use warpscope_emu::Program;

/// How an instruction is named in findings: `file.cu:LINE` (base name), else `PTX line N`; and the
/// file's base name. Code the compiler inlined from a CUDA header (`__shfl_sync`, `__syncwarp`,
/// cooperative groups) is named by the user's line that called it, with the header's line after it
/// as context: `k.cu:12 (via sm_30_intrinsics.hpp:99)` (see [`user_frame`]).
pub fn locate(program: &Program, pc: u32) -> (Loc, Option<String>) {
    let frames = program.frames(pc);
    let base = |l: &warpscope_emu::SrcLoc| {
        program
            .file_name(l.file)
            .map(|f| f.rsplit('/').next().unwrap_or(f).to_string())
    };
    let name = |l: &warpscope_emu::SrcLoc| match base(l) {
        Some(f) => format!("{f}:{}", l.line),
        None => format!("line {}", l.line),
    };
    match user_frame(program, pc) {
        Some(i) => {
            let l = &frames[i];
            let mut label = name(l);
            if i > 0 {
                let via: Vec<String> = frames[..i].iter().map(name).collect();
                label.push_str(&format!(" (via {})", via.join(" <- ")));
            }
            (
                Loc {
                    line: Some(l.line),
                    label,
                },
                base(l),
            )
        }
        None => (
            Loc {
                line: None,
                label: format!("PTX line {}", program.inst_info(pc).ptx_line),
            },
            None,
        ),
    }
}

/// The frame of [`Program::frames`] a finding at `pc` names: the innermost one outside the CUDA
/// toolkit's headers (the user's line that called an inlined intrinsic), else the innermost.
/// `None` without line information.
pub fn user_frame(program: &Program, pc: u32) -> Option<usize> {
    let frames = program.frames(pc);
    if frames.is_empty() {
        return None;
    }
    Some(
        frames
            .iter()
            .position(|l| !program.file_name(l.file).is_some_and(is_toolkit_header))
            .unwrap_or(0),
    )
}

/// Whether a `.file` path names a header of the CUDA toolkit rather than the user's code: a header
/// under a toolkit's `include` tree (`/usr/local/cuda-12.8/include`, `targets/x86_64-linux/include`,
/// the PyPI wheels' `nvidia/cu13/include`; the intrinsics, cooperative groups, CCCL), or one of
/// NVRTC's built-in headers (named without a directory).
pub fn is_toolkit_header(path: &str) -> bool {
    let p = path.replace('\\', "/").to_ascii_lowercase();
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let Some(base) = parts.last() else {
        return false;
    };
    let header =
        base.ends_with(".h") || base.ends_with(".hpp") || base.ends_with(".cuh") || !base.contains('.');
    if !header {
        return false;
    }
    if !p.contains('/') {
        return [
            "sm_",
            "cuda_",
            "device_",
            "cooperative_groups",
            "__nv",
            "texture_",
            "surface_",
            "vector_",
            "math_functions",
            "mma",
        ]
        .iter()
        .any(|k| base.starts_with(k));
    }
    parts.iter().enumerate().any(|(i, &c)| {
        c == "include"
            && i > 0
            && (parts[i - 1].starts_with("cuda")
                || (i > 1 && parts[i - 2] == "targets")
                || parts[..i].contains(&"nvidia")
                || parts[..i].contains(&"cccl"))
    })
}
