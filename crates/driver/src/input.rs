//! What the user has, turned into a lowered PTX [`Program`]: a CUDA source (`.cu`, compiled by NVRTC,
//! or by the toolkit's nvcc when NVRTC cannot be loaded, with `-I`, `-D`, `-std=` and pass-through
//! options), a PTX file, or a binary that carries PTX (`.cubin`, fatbinary, object file, executable:
//! the PTX is extracted with `cuobjdump -ptx` from the toolkit or the PyPI wheels).
//!
//! Errors name the file and the reason: a compile error carries the compiler's log (which names a
//! missing header), a missing tool says which one and where it was looked for.

use std::path::{Path, PathBuf};
use std::process::Command;

use warpscope_model::arch::Arch;
use warpscope_ptx::Program;
use warpscope_toolchain::locate::{CudaRoot, SearchEnv};

use crate::error::{Error, Result};
use crate::limits;

/// How a CUDA source is compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// Include directories (`-I DIR`); the source's own directory is always searched first.
    pub include_dirs: Vec<PathBuf>,
    /// Macros (`-D NAME` or `-D NAME=VALUE`).
    pub defines: Vec<String>,
    /// The C++ dialect (`c++17`, `c++20`); the compiler's default when `None`.
    pub std: Option<String>,
    /// Options passed to the compiler as they are (NVRTC's, or nvcc's when nvcc compiles).
    pub extra: Vec<String>,
    /// Build with `-G` (device debug).
    pub debug: bool,
    /// NVRTC library file or directory, when it is not found by itself.
    pub nvrtc: Option<PathBuf>,
}

impl CompileOptions {
    /// The include, macro, dialect and pass-through options, with the source's directory first, in
    /// NVRTC's spelling (`nvrtc`) or nvcc's.
    fn common(&self, source_dir: Option<&Path>, nvrtc: bool) -> Vec<String> {
        let (inc, def, std) = if nvrtc {
            ("--include-path=", "--define-macro=", "--std=")
        } else {
            ("-I", "-D", "-std=")
        };
        let mut v = Vec::new();
        for d in source_dir
            .into_iter()
            .chain(self.include_dirs.iter().map(PathBuf::as_path))
        {
            v.push(format!("{inc}{}", d.display()));
        }
        v.extend(self.defines.iter().map(|d| format!("{def}{d}")));
        if let Some(s) = &self.std {
            let s = s.trim_start_matches('-').trim_start_matches("std=");
            v.push(format!("{std}{s}"));
        }
        v.extend(self.extra.iter().cloned());
        v
    }
}

/// The kind of an input file, by its name and first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// CUDA C++ source (`.cu`, `.cuh`).
    Cuda,
    /// PTX text.
    Ptx,
    /// A binary holding PTX (ELF, fatbinary).
    Binary,
}

impl InputKind {
    /// The kind of `path`: `.cu`/`.cuh` CUDA, `.ptx` PTX, a file starting with the ELF or fatbinary
    /// magic a binary, anything else PTX text.
    pub fn of(path: &Path) -> InputKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("cu" | "cuh") => return InputKind::Cuda,
            Some("ptx") => return InputKind::Ptx,
            Some("cubin" | "fatbin" | "o" | "so" | "a" | "out") => return InputKind::Binary,
            _ => {}
        }
        let mut magic = [0u8; 4];
        let is_binary = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
            .is_ok()
            && (magic == *b"\x7fELF"
                || magic == [0x50, 0xed, 0x55, 0xba]
                || magic == [0x46, 0x62, 0x0d, 0xba]);
        if is_binary {
            InputKind::Binary
        } else {
            InputKind::Ptx
        }
    }

    /// `CUDA`, `PTX`, `binary`.
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Cuda => "CUDA",
            InputKind::Ptx => "PTX",
            InputKind::Binary => "binary",
        }
    }
}

/// A loaded input: its PTX, lowered, and what else compiling it gave.
#[derive(Clone, Debug)]
pub struct Module {
    /// The file given.
    pub path: PathBuf,
    /// Its kind.
    pub kind: InputKind,
    /// The PTX text.
    pub ptx: String,
    /// The CUBIN the compiler produced alongside (NVRTC for a real architecture).
    pub cubin: Option<Vec<u8>>,
    /// The lowered program.
    pub program: Program,
    /// How the PTX was obtained (`NVRTC`, `nvcc from ...`, `cuobjdump from ...`), `None` for PTX.
    pub made_by: Option<String>,
    /// The CUDA source text for a `.cu` input.
    pub cuda_source: Option<String>,
}

/// Parses and lowers PTX, naming `file:line:column` and the text of every problem.
pub fn compile_ptx(ptx: &str, file: &Path) -> Result<Program> {
    compile_ptx_named(ptx, file, false)
}

/// Parses and lowers PTX; `generated` when the PTX was compiled or extracted from `file` (a `.cu` or a
/// binary), so a problem is named by the source line the PTX's nearest `.loc` gives and by the line of
/// the generated PTX, not as if `file` itself had that line.
fn compile_ptx_named(ptx: &str, file: &Path, generated: bool) -> Result<Program> {
    let place = |line: u32, col: u32| ptx_place(ptx, file, generated, line, col);
    let (module, diags) = warpscope_ptx::parse(ptx);
    if !diags.is_empty() {
        let list: Vec<String> = diags
            .iter()
            .map(|d| {
                format!(
                    "{}: {} (at `{}`)",
                    place(d.pos.line, d.pos.col),
                    d.message,
                    d.text
                )
            })
            .collect();
        return Err(Error::input(format!("cannot parse PTX:\n{}", list.join("\n"))));
    }
    warpscope_ptx::lower(&module).map_err(|errs| {
        let list: Vec<String> = errs
            .iter()
            .map(|e| {
                format!(
                    "{}: {} (in `{}`)",
                    place(e.pos.line, e.pos.col),
                    e.message,
                    e.text
                )
            })
            .collect();
        Error::input(format!("cannot lower PTX:\n{}", list.join("\n")))
    })
}

/// `file:line:col` for a PTX file; for generated PTX, `source:line (line L:C of the PTX made from
/// file)` with the source line of the last `.loc` at or before the line, or without it when none.
fn ptx_place(ptx: &str, file: &Path, generated: bool, line: u32, col: u32) -> String {
    if !generated {
        return format!("{}:{line}:{col}", file.display());
    }
    let made = format!("line {line}:{col} of the PTX made from {}", file.display());
    match source_line_before(ptx, line as usize) {
        Some((name, l)) => format!("{name}:{l} ({made})"),
        None => format!("{} ({made})", file.display()),
    }
}

/// The source file and line of the last `.loc` directive on or before PTX line `line` (1-based),
/// the file named by the module's `.file` table.
fn source_line_before(ptx: &str, line: usize) -> Option<(String, u64)> {
    let mut files: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    let mut last: Option<(&str, u64)> = None;
    for (i, text) in ptx.lines().enumerate() {
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix(".file") {
            let mut parts = rest.trim_start().splitn(2, char::is_whitespace);
            if let (Some(idx), Some(name)) = (parts.next(), parts.next())
                && let Some(q) = name.trim_start().strip_prefix('"')
                && let Some(end) = q.find('"')
            {
                files.insert(idx, &q[..end]);
            }
        }
        if i >= line {
            continue;
        }
        if let Some(rest) = t.strip_prefix(".loc") {
            let mut parts = rest.split_whitespace();
            if let (Some(idx), Some(l)) = (parts.next(), parts.next())
                && let Ok(l) = l.trim_end_matches(',').parse::<u64>()
                && l > 0
            {
                last = Some((idx, l));
            }
        }
    }
    let (idx, l) = last?;
    Some((files.get(idx)?.to_string(), l))
}

/// The CUDA root (toolkit or wheels), or why there is none.
pub fn cuda_root() -> std::result::Result<CudaRoot, String> {
    warpscope_toolchain::locate::find(&SearchEnv::from_process()).map_err(|e| e.to_string())
}

/// Runs a tool; its stderr is the error.
pub(crate) fn run_tool(cmd: &mut Command, what: &str) -> std::result::Result<Vec<u8>, String> {
    let out = cmd.output().map_err(|e| format!("cannot run {what}: {e}"))?;
    if !out.status.success() {
        let mut msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
        if msg.is_empty() {
            msg = String::from_utf8_lossy(&out.stdout).trim().to_string();
        }
        return Err(format!("{what} failed: {msg}"));
    }
    Ok(out.stdout)
}

/// A scratch directory, removed when dropped.
pub(crate) struct Scratch(pub PathBuf);

impl Scratch {
    pub(crate) fn new(tag: &str) -> Result<Scratch> {
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("warpscope-{tag}-{}-{seq}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::unavailable(format!("cannot create {}: {e}", dir.display())))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// NVRTC, loaded from `explicit`, the usual places, or the CUDA root's `lib`/`lib64`.
fn load_nvrtc(explicit: Option<&Path>) -> std::result::Result<warpscope_gpu::nvrtc::Nvrtc, String> {
    match warpscope_gpu::nvrtc::Nvrtc::load(explicit) {
        Ok(n) => Ok(n),
        Err(e) if explicit.is_none() => cuda_root()
            .ok()
            .and_then(|root| {
                ["lib", "lib64"]
                    .iter()
                    .map(|d| root.root.join(d))
                    .filter(|d| d.is_dir())
                    .find_map(|d| warpscope_gpu::nvrtc::Nvrtc::load(Some(&d)).ok())
            })
            .ok_or_else(|| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Compiles CUDA source text (`file` names it and gives its directory for includes) for `arch`, by
/// NVRTC or, when NVRTC cannot be loaded or cannot compile it (host code), the toolkit's nvcc.
/// Returns (PTX, CUBIN?, how).
pub fn compile_cuda(
    src: &str,
    file: &Path,
    arch: &Arch,
    opts: &CompileOptions,
) -> Result<(String, Option<Vec<u8>>, String)> {
    // NVRTC names the source in `.file` as it is given: the path, so that reports and SARIF find it.
    let base = file.file_name().and_then(|n| n.to_str()).unwrap_or("kernel.cu");
    let name = file.to_str().unwrap_or(base);
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // NVRTC compiles device code only: a whole program (host headers such as <cstdio>, `main`)
    // fails there, and goes to nvcc when one is found; without nvcc NVRTC's error is the answer,
    // and when nvcc fails too both errors are, the one that explains the failure first.
    let mut nvrtc_failed: Option<Error> = None;
    let nvrtc_err = match load_nvrtc(opts.nvrtc.as_deref()) {
        Ok(n) => {
            let mut o = warpscope_gpu::nvrtc::CompileOptions::for_cc(arch.cc());
            o.debug = opts.debug;
            o.extra = opts.common(Some(dir), true);
            match n.compile(src, name, &o) {
                Ok(c) => return Ok((c.ptx, c.cubin, "NVRTC".into())),
                Err(e) => {
                    nvrtc_failed = Some(Error::input(format!(
                        "{}: NVRTC compilation failed: {e}",
                        file.display()
                    )));
                    "NVRTC could not compile it (device code only: host code needs nvcc)".to_string()
                }
            }
        }
        Err(e) => format!("NVRTC unavailable: {e}"),
    };
    if let Some(first) = nvrtc_failed {
        return compile_nvcc(file, dir, arch, opts, &nvrtc_err).map_err(|second| both_failed(first, second));
    }
    compile_nvcc(file, dir, arch, opts, &nvrtc_err)
}

/// Whether a compiler's log names the reason with a place: a source line (`k.cu(12): error`,
/// `k.cu:12:3: error`) or a file it cannot open.
fn explains(log: &str) -> bool {
    let line_ref = |open: char, close: char| {
        log.match_indices(open).any(|(i, _)| {
            let rest = &log[i + 1..];
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            digits > 0 && rest[digits..].starts_with(close)
        })
    };
    line_ref('(', ')')
        || line_ref(':', ':')
        || log.contains("cannot open source file")
        || log.contains("No such file")
}

/// The headers a compiler's log says it cannot open (`cannot open source file "cstdio"`).
fn missing_headers(log: &str) -> Vec<&str> {
    log.match_indices("cannot open source file \"")
        .filter_map(|(i, m)| {
            let rest = &log[i + m.len()..];
            rest.find('"').map(|j| &rest[..j])
        })
        .collect()
}

/// The error when NVRTC and then nvcc failed on a `.cu`: both compilers' errors, the one that
/// explains the failure first. nvcc's comes first when it names a line or a file and NVRTC's does
/// not, or when NVRTC only missed a header nvcc found (a host header such as `<cstdio>`: NVRTC
/// compiles device code only); NVRTC's first otherwise. A missing nvcc leaves NVRTC's error.
fn both_failed(nvrtc: Error, nvcc: Error) -> Error {
    if nvcc.kind == crate::error::ErrorKind::Unavailable {
        return nvrtc;
    }
    let missing = missing_headers(&nvrtc.message);
    let nvrtc_host_only = !missing.is_empty() && missing.iter().all(|h| !nvcc.message.contains(h));
    let nvcc_first = explains(&nvcc.message) && (!explains(&nvrtc.message) || nvrtc_host_only);
    let (a, b) = if nvcc_first {
        (nvcc.message, nvrtc.message)
    } else {
        (nvrtc.message, nvcc.message)
    };
    Error::input(format!(
        "{}\n\nthe other compiler failed too:\n{}",
        a.trim_end(),
        b.trim_end()
    ))
}

/// [`compile_cuda`] by the toolkit's nvcc; `nvrtc_err` says why NVRTC did not.
fn compile_nvcc(
    file: &Path,
    dir: &Path,
    arch: &Arch,
    opts: &CompileOptions,
    nvrtc_err: &str,
) -> Result<(String, Option<Vec<u8>>, String)> {
    let root = cuda_root().map_err(|e| {
        // the toolkit's absence is the one thing to fix; why NVRTC did not load is a detail
        Error::unavailable(if warpscope_toolchain::locate::verbose() {
            format!("cannot compile {}: {e}\nNVRTC: {nvrtc_err}", file.display())
        } else {
            format!("cannot compile {}: {e}", file.display())
        })
    })?;
    let nvcc = root.bin("nvcc");
    if !nvcc.exists() {
        return Err(Error::unavailable(format!(
            "cannot compile {}: {nvrtc_err}, and no nvcc in {}",
            file.display(),
            root.root.display()
        )));
    }
    let scratch = Scratch::new("nvcc")?;
    let ptx_path = scratch.0.join("k.ptx");
    let mut cmd = Command::new(&nvcc);
    cmd.arg(format!("-arch={}", arch.name))
        .args(if opts.debug {
            ["-G", "-O0"]
        } else {
            ["-O3", "-lineinfo"]
        })
        .args(opts.common(Some(dir), false))
        .args(["-ptx", "-o"])
        .arg(&ptx_path)
        .arg(file);
    run_tool(&mut cmd, "nvcc").map_err(|e| Error::input(format!("{}: {e}", file.display())))?;
    let ptx = std::fs::read_to_string(&ptx_path)
        .map_err(|e| Error::input(format!("{}: reading nvcc's PTX: {e}", file.display())))?;
    Ok((
        ptx,
        None,
        format!("nvcc from {} ({nvrtc_err})", root.root.display()),
    ))
}

/// The PTX sections of `cuobjdump -ptx` output: (arch, text), in file order.
pub fn ptx_sections(dump: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in dump.split("Fatbin ptx code:").skip(1) {
        let mut arch = String::new();
        let mut text = String::new();
        let mut in_body = false;
        for line in part.lines() {
            let t = line.trim();
            if !in_body {
                if let Some(a) = t.strip_prefix("arch =") {
                    arch = a.trim().to_string();
                }
                if t.starts_with(".version") || t.starts_with("//") {
                    in_body = true;
                } else {
                    continue;
                }
            }
            if t.starts_with("Fatbin elf code:") {
                break;
            }
            text.push_str(line);
            text.push('\n');
        }
        if !text.trim().is_empty() {
            out.push((arch, text));
        }
    }
    out
}

/// The PTX carried by a binary (`cuobjdump -ptx`), for `arch`: the section built for the highest
/// architecture not above it, else the first. Returns (PTX, how).
pub fn extract_ptx(path: &Path, arch: &Arch) -> Result<(String, String)> {
    let root = cuda_root().map_err(|e| {
        Error::unavailable(format!(
            "cannot read the PTX of {} (cuobjdump needed): {e}",
            path.display()
        ))
    })?;
    let tool = root.bin("cuobjdump");
    if !tool.exists() {
        return Err(Error::unavailable(format!(
            "cannot read the PTX of {}: no cuobjdump in {}",
            path.display(),
            root.root.display()
        )));
    }
    let out = run_tool(Command::new(&tool).arg("-ptx").arg(path), "cuobjdump")
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let dump = String::from_utf8_lossy(&out);
    let sections = ptx_sections(&dump);
    let cc = |a: &str| {
        a.trim_start_matches("sm_")
            .trim_start_matches("compute_")
            .trim_end_matches(['a', 'f'])
            .parse::<u32>()
            .ok()
    };
    let best = sections
        .iter()
        .filter(|(a, _)| cc(a).is_some_and(|c| c <= arch.cc()))
        .max_by_key(|(a, _)| cc(a))
        .or(sections.first());
    match best {
        Some((a, text)) => Ok((
            text.clone(),
            format!("cuobjdump -ptx ({a}) from {}", root.root.display()),
        )),
        None => Err(Error::input(format!(
            "{}: carries no PTX (a .cubin holds machine code only; build with PTX in the fatbinary, \
             e.g. nvcc -gencode arch=compute_90,code=compute_90, or give the .cu or .ptx)",
            path.display()
        ))),
    }
}

/// Loads `path` for `arch`: reads, compiles or extracts the PTX, and lowers it.
pub fn load(path: &Path, arch: &Arch, opts: &CompileOptions) -> Result<Module> {
    let kind = InputKind::of(path);
    let (ptx, cubin, made_by, cuda_source) = match kind {
        InputKind::Cuda => {
            let src = limits::read_source(path)?;
            let (ptx, cubin, how) = compile_cuda(&src, path, arch, opts)?;
            (ptx, cubin, Some(how), Some(src))
        }
        InputKind::Ptx => (limits::read_source(path)?, None, None, None),
        InputKind::Binary => {
            let meta = std::fs::metadata(path)
                .map_err(|e| Error::input(format!("cannot read {}: {e}", path.display())))?;
            if meta.len() > limits::MAX_BINARY_BYTES {
                return Err(Error::input(format!(
                    "{}: {} bytes, over the {} limit for a binary input",
                    path.display(),
                    meta.len(),
                    limits::mib(limits::MAX_BINARY_BYTES)
                )));
            }
            let (ptx, how) = extract_ptx(path, arch)?;
            (ptx, None, Some(how), None)
        }
    };
    let program = compile_ptx_named(&ptx, path, kind != InputKind::Ptx)?;
    Ok(Module {
        path: path.to_path_buf(),
        kind,
        ptx,
        cubin,
        program,
        made_by,
        cuda_source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuobjdump_sections() {
        let dump = "\nFatbin elf code:\n================\narch = sm_90\n\nFatbin ptx code:\n================\narch = sm_80\ncode version = [9,5]\nhost = linux\ncompile_size = 64bit\ncompressed\nptxasOptions = \n\n\n.version 9.5\n.target sm_80\n.address_size 64\n\nFatbin ptx code:\n================\narch = sm_90\nptxasOptions = \n//\n// Generated\n.version 9.5\n.target sm_90\n";
        let s = ptx_sections(dump);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "sm_80");
        assert!(s[0].1.starts_with(".version 9.5\n.target sm_80"), "{:?}", s[0].1);
        assert_eq!(s[1].0, "sm_90");
        assert!(s[1].1.starts_with("//\n// Generated"), "{:?}", s[1].1);
        assert!(ptx_sections("nothing here").is_empty());
    }

    #[test]
    fn both_compilers_errors_the_explaining_one_first() {
        let nvrtc = |m: &str| Error::input(format!("k.cu: NVRTC compilation failed: {m}"));
        let nvcc = |m: &str| Error::input(format!("k.cu: nvcc failed: {m}"));
        // a whole program: NVRTC misses the host header, nvcc names the syntax error
        let e = both_failed(
            nvrtc("k.cu(1): catastrophic error: cannot open source file \"cstdio\""),
            nvcc("k.cu(5): error: expected a \";\""),
        );
        let (first, second) = e.message.split_once("the other compiler failed too").unwrap();
        assert!(
            first.contains("expected a") && second.contains("cstdio"),
            "{}",
            e.message
        );
        // a header missing for both: NVRTC's first, nvcc's after it
        let e = both_failed(
            nvrtc("k.cu(1): catastrophic error: cannot open source file \"mine.cuh\""),
            nvcc("k.cu:1:10: fatal error: mine.cuh: No such file or directory"),
        );
        let (first, second) = e.message.split_once("the other compiler failed too").unwrap();
        assert!(
            first.contains("NVRTC") && second.contains("nvcc"),
            "{}",
            e.message
        );
        // nvcc failing for its own reasons (no host compiler): NVRTC's line first
        let e = both_failed(
            nvrtc("k.cu(3): error: identifier \"x\" is undefined"),
            nvcc("sh: 1: gcc: not found"),
        );
        assert!(e.message.starts_with("k.cu: NVRTC"), "{}", e.message);
        assert!(e.message.contains("gcc: not found"), "{}", e.message);
        // no nvcc at all: NVRTC's error as it was
        let e = both_failed(nvrtc("k.cu(3): error"), Error::unavailable("no nvcc"));
        assert!(!e.message.contains("other compiler"), "{}", e.message);
    }

    #[test]
    fn options_in_order() {
        let o = CompileOptions {
            include_dirs: vec!["inc".into()],
            defines: vec!["TILE=32".into(), "FAST".into()],
            std: Some("c++17".into()),
            extra: vec!["--use_fast_math".into()],
            ..CompileOptions::default()
        };
        assert_eq!(
            o.common(Some(Path::new("src")), false),
            [
                "-Isrc",
                "-Iinc",
                "-DTILE=32",
                "-DFAST",
                "-std=c++17",
                "--use_fast_math"
            ]
        );
        assert_eq!(
            o.common(None, true),
            [
                "--include-path=inc",
                "--define-macro=TILE=32",
                "--define-macro=FAST",
                "--std=c++17",
                "--use_fast_math"
            ]
        );
    }

    /// PTX a compiler made from `app.cu`, with an instruction the lowering refuses on line 12.
    const MADE: &str = ".version 9.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/app.cu\"\n\
        .visible .entry k()\n{\n.reg .b32 %r<2>;\n.loc 1 7 3\nmov.u32 %r1, 1;\n.loc 1 9 5\n\
        mov.u32 %r1, 2;\nbogus.op.u32 %r1, %r1;\nret;\n}\n";

    #[test]
    fn generated_ptx_problems_name_the_source_line_and_the_ptx_line() {
        let (module, diags) = warpscope_ptx::parse(MADE);
        let line = match warpscope_ptx::lower(&module) {
            Err(errs) => errs[0].pos.line,
            Ok(_) if !diags.is_empty() => diags[0].pos.line,
            Ok(_) => panic!("the test PTX must be refused"),
        };
        assert_eq!(line, 12, "the refused instruction's PTX line");
        let e = compile_ptx_named(MADE, Path::new("app.cu"), true)
            .unwrap_err()
            .message;
        assert!(e.contains("/src/app.cu:9 (line 12:"), "{e}");
        assert!(e.contains("of the PTX made from app.cu)"), "{e}");
        // a PTX file given by the user keeps its own file:line:col
        let e = compile_ptx(MADE, Path::new("k.ptx")).unwrap_err().message;
        assert!(e.contains("k.ptx:12:"), "{e}");
        assert!(!e.contains("/src/app.cu"), "{e}");
    }

    #[test]
    fn source_line_before_uses_the_last_loc_and_the_file_table() {
        assert_eq!(source_line_before(MADE, 9), Some(("/src/app.cu".to_string(), 7)));
        assert_eq!(source_line_before(MADE, 13), Some(("/src/app.cu".to_string(), 9)));
        assert_eq!(source_line_before(MADE, 3), None);
        // a .loc whose file the table lacks, or line 0 (no source), gives nothing
        assert_eq!(source_line_before(".loc 2 5 1\nnop;\n", 2), None);
        assert_eq!(
            source_line_before(".file 1 \"a.cu\"\n.loc 1 0 0\nnop;\n", 3),
            None
        );
    }
}
