//! How findings name an instruction: the user's source line (through code inlined from CUDA's
//! headers), the file's base name, or the PTX line.

use warpscope_analysis::hazards::Loc;
use warpscope_emu::Program;

/// How an instruction is named in findings: `file.cu:LINE` (base name), else `PTX line N`; and the
/// file's base name. Code the compiler inlined from a CUDA header (`__shfl_sync`, `__syncwarp`,
/// cooperative groups) is named by the user's line that called it, with the header's line after it
/// as context: `k.cu:12 (via sm_30_intrinsics.hpp:99)` (see [`user_frame`]). Code of a function of
/// the user's that the compiler inlined is named by its own line, with the lines that called it
/// as context: `k.cu:3 (inlined, called from k.cu:9)`.
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
            if l.line == 0
                && let Some(before) = line_before(program, pc)
            {
                let (mut at, base) = locate(program, before);
                at.label
                    .push_str(" (code the compiler gave no line of its own, after this line)");
                return (at, base);
            }
            let mut label = name(l);
            let mut context = Vec::new();
            if i > 0 {
                let via: Vec<String> = frames[..i].iter().map(name).collect();
                context.push(format!("via {}", via.join(" <- ")));
            }
            // a function of the user's the compiler inlined: the lines that called it, innermost
            // first (`k.cu:3 (inlined, called from k.cu:9)`)
            let callers: Vec<String> = frames[i + 1..]
                .iter()
                .filter(|f| f.line != 0 && !program.file_name(f.file).is_some_and(is_toolkit_header))
                .map(name)
                .collect();
            if !callers.is_empty() {
                context.push(format!("inlined, called from {}", callers.join(" <- ")));
            }
            if !context.is_empty() {
                label.push_str(&format!(" ({})", context.join("; ")));
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

/// The nearest earlier instruction of `pc`'s kernel and function body whose named frame has a
/// source line, for an instruction the compiler placed at line 0 (`.loc 1 0 9`: code it generated
/// with no line of its own, such as the byte loop of a device-side `memset`, which follows the
/// `.loc` of the call's line; or code it merged from several lines, such as one store hoisted out
/// of both branches of an `if`, which the line before names only roughly: the label says so).
/// `None` when there is none.
fn line_before(program: &Program, pc: u32) -> Option<u32> {
    let k = program.kernels.iter().find(|k| k.entry <= pc && pc < k.end)?;
    let body = program.inst_info(pc).body;
    (k.entry..pc).rev().find(|&p| {
        program.inst_info(p).body == body
            && user_frame(program, p).is_some_and(|i| program.frames(p)[i].line != 0)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The pc of kernel `k`'s instruction on PTX line `ptx_line`.
    fn pc_at(program: &warpscope_ptx::Program, ptx_line: u32) -> u32 {
        let k = program.kernel("k").unwrap();
        (k.entry..k.end)
            .find(|&pc| program.inst_info(pc).ptx_line == ptx_line)
            .unwrap()
    }

    /// A kernel whose store at PTX line 14 the compiler placed at line 0 of `a.cu`, after the
    /// `.loc` of line 7, and a body-0 instruction at line 0 with no line before it.
    const LINE0: &str = ".version 9.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/a.cu\"\n\
        .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n.loc 1 0 0\n\
        ld.param.u64 %rd1, [p];\n.loc 1 7 3\nmov.u32 %r1, 1;\n.loc 1 0 9\nst.global.u32 [%rd1], %r1;\n\
        ret;\n}\n";

    #[test]
    fn an_instruction_at_line_0_is_named_by_the_line_before_it() {
        let (module, _) = warpscope_ptx::parse(LINE0);
        let program = warpscope_ptx::lower(&module).unwrap();
        let at = |ptx_line: u32| pc_at(&program, ptx_line);
        let (st, base) = locate(&program, at(14));
        assert_eq!(st.line, Some(7));
        assert_eq!(
            st.label,
            "a.cu:7 (code the compiler gave no line of its own, after this line)"
        );
        assert_eq!(base.as_deref(), Some("a.cu"));
        // the first instruction has no line before it: it keeps line 0
        assert_eq!(locate(&program, at(10)).0.line, Some(0));
    }

    /// A store in a function of the user's inlined at line 9 (PTX line 13), and a shuffle of a
    /// toolkit header inlined at line 4 (PTX line 15).
    const INLINED: &str = ".version 9.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/a.cu\"\n\
        .file 2 \"/cuda/include/sm_30_intrinsics.hpp\"\n\
        .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
        .loc 1 9 3\nld.param.u64 %rd1, [p];\n\
        .loc 1 3 5, function_name $L__info_string0, inlined_at 1 9 3\nst.global.u32 [%rd1], %r1;\n\
        .loc 2 99 1, function_name $L__info_string1, inlined_at 1 4 7\n\
        shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\nret;\n}\n";

    #[test]
    fn code_of_an_inlined_function_of_the_users_names_its_callers() {
        let (module, _) = warpscope_ptx::parse(INLINED);
        let program = warpscope_ptx::lower(&module).unwrap();
        let at = |ptx_line: u32| pc_at(&program, ptx_line);
        let (st, _) = locate(&program, at(13));
        assert_eq!(st.line, Some(3));
        assert_eq!(st.label, "a.cu:3 (inlined, called from a.cu:9)");
        // the kernel's own line: no context; the header's code: the user's line, the header's after
        assert_eq!(locate(&program, at(11)).0.label, "a.cu:9");
        assert_eq!(
            locate(&program, at(15)).0.label,
            "a.cu:4 (via sm_30_intrinsics.hpp:99)"
        );
    }
}
