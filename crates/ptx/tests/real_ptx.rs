//! Every nvcc-generated fixture (O3 + lineinfo, and -G with DWARF sections) parses without
//! diagnostics and lowers without errors; kernels, labels and `.loc` info come through.

use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../emu/tests/data")
}

fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("fixture directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    v.sort();
    assert!(v.len() >= 4, "expected the nvcc fixtures, found {v:?}");
    v
}

#[test]
fn all_fixtures_parse_and_lower() {
    for p in fixtures() {
        let src = std::fs::read_to_string(&p).unwrap();
        let (m, d) = warpscope_ptx::parse(&src);
        assert!(d.is_empty(), "{}: {:?}", p.display(), d);
        assert!(!m.functions.is_empty());
        let prog = warpscope_ptx::lower(&m).unwrap_or_else(|e| panic!("{}: {:#?}", p.display(), e));
        for k in &prog.kernels {
            assert!(k.end > k.entry);
        }
        // every pc maps back to a PTX line holding its text's opcode
        let lines: Vec<&str> = src.lines().collect();
        for (pc, info) in prog.info.iter().enumerate() {
            if info.text == "}" {
                continue;
            }
            let line = lines[info.ptx_line as usize - 1];
            let opcode = info
                .text
                .split_whitespace()
                .find(|w| !w.starts_with('@'))
                .unwrap();
            assert!(line.contains(opcode), "pc {pc}: `{line}` vs `{}`", info.text);
        }
    }
}

#[test]
fn seed_kernels_have_expected_shared_layout() {
    let src = std::fs::read_to_string(data_dir().join("seeds_square.ptx")).unwrap();
    let prog = warpscope_ptx::compile(&src).unwrap();
    let k = prog.kernel("setRowReadColPad").unwrap();
    assert_eq!(k.shared.len(), 1);
    assert_eq!(k.shared[0].size, 32 * 33 * 4);
    let k = prog.kernel("setRowReadColDyn").unwrap();
    assert!(k.shared[0].dynamic);
    assert_eq!(k.static_smem, 0);
    let src = std::fs::read_to_string(data_dir().join("seeds_rect.ptx")).unwrap();
    let prog = warpscope_ptx::compile(&src).unwrap();
    let k = prog.kernel("setRowReadColRectPad").unwrap();
    assert_eq!(k.shared[0].size, 16 * 34 * 4);
    assert!(prog.info.iter().any(|i| i.loc.is_some()));
    assert_eq!(
        prog.file_name(1).map(|f| f.ends_with("seeds_rect.cu")),
        Some(true)
    );
}

#[test]
fn debug_build_with_dwarf_sections_parses() {
    let src = std::fs::read_to_string(data_dir().join("kernels_debug.ptx")).unwrap();
    assert!(src.contains(".section"));
    let (m, d) = warpscope_ptx::parse(&src);
    assert!(d.is_empty(), "{d:?}");
    assert!(m.functions.iter().any(|f| f.name == "matmul"));
}

/// `warpSize` in CUDA C++ becomes the PTX constant `WARP_SZ` (nvcc -G keeps it): it reads as 32.
#[test]
fn warp_sz_constant_is_32() {
    let src = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, WARP_SZ;\nret;\n}\n";
    let (module, diags) = warpscope_ptx::parse::parse(src);
    assert!(diags.is_empty(), "{diags:?}");
    let text = format!("{module:?}");
    assert!(text.contains("Int(32)"), "{text}");
    assert!(warpscope_ptx::compile(src).is_ok());
}

/// `.loc ..., inlined_at F L C` (nvcc -lineinfo, CUDA 13): an intrinsic of a CUDA header inlined
/// into the user's device function, itself inlined into the kernel. Each instruction keeps its
/// call sites outwards, the inner site's own `inlined_at` naming the outer one.
#[test]
fn inlined_at_gives_the_call_sites_outwards() {
    let ptx = r#"
.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<2>;
	.loc	1 10 9
	mov.u32 %r1, %tid.x;
	.loc	1 3 5, function_name $L__info_string0, inlined_at 1 10 9
	.loc	2 99 3, function_name $L__info_string1, inlined_at 1 3 5
	barrier.sync 	0;
	.loc	1 12 5
	ret;
}
	.file	1 "/src/nest.cu"
	.file	2 "/usr/local/cuda/include/sm_30_intrinsics.hpp"
	.section	.debug_str
	{
$L__info_string0:
.b8 95,0
$L__info_string1:
.b8 95,0
	}
"#;
    let prog = warpscope_ptx::compile(ptx).unwrap();
    let line = |l: &warpscope_ptx::SrcLoc| (l.file, l.line, l.col);
    let at = |pc: u32| prog.frames(pc).iter().map(line).collect::<Vec<_>>();
    assert_eq!(at(0), [(1, 10, 9)]);
    assert_eq!(at(1), [(2, 99, 3), (1, 3, 5), (1, 10, 9)]);
    assert!(prog.inst_info(1).text.contains("barrier"));
    assert_eq!(
        at(2),
        [(1, 12, 5)],
        "a later .loc without inlined_at ends the chain"
    );
}
