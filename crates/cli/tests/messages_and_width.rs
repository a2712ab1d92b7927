//! What a newcomer reads first: a missing toolkit is one sentence naming `warpscope setup` (the
//! places searched only with `--verbose`), and `warpscope run`'s output fits the terminal
//! (`COLUMNS`) while CSV keeps every column.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The CUDA wheels' root (`./scripts/test` exports it).
fn cuda_root() -> String {
    std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)")
}

const SENTENCE: &str = "no CUDA toolkit found: run `warpscope setup` to install one";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpscope-msg-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `warpscope ARGS` in `dir` where no toolkit can be found: only the variables are searched
/// (`WARPSCOPE_CUDA_SEARCH=env`) and `CUDA_HOME` names a folder without one.
fn without_toolkit(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_SEARCH", "env")
        .env("CUDA_HOME", dir.join("no-toolkit-here"))
        .env_remove("WARPSCOPE_CUDA_ROOT")
        .env_remove("CUDA_PATH")
        .env_remove("WARPSCOPE_VERBOSE")
        .env("WARPSCOPE_NO_CACHE", "1")
        .output()
        .unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_missing_toolkit_is_one_sentence_naming_setup() {
    let dir = scratch("none");
    let ptx = repo().join("crates/cli/fixtures/seeds/col32.ptx");
    let ptx = ptx.to_str().unwrap();
    let analyze = [
        "analyze", ptx, "--grid", "1", "--block", "32,32", "--arg", "buf:4096",
    ];
    let o = without_toolkit(&analyze, &dir);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // the note of the issue, once, unnested, with its fix and without the places searched
    assert!(
        out.lines()
            .any(|l| l == format!("note: occupancy: registers unknown ({SENTENCE})")),
        "{out}"
    );
    for l in out.lines().chain(err.lines()) {
        assert!(l.matches("no CUDA toolkit found").count() <= 1, "{l}");
        assert!(!l.contains("looked for") && !l.contains("no-toolkit-here"), "{l}");
    }
    // --verbose: the places, one a line
    let mut verbose = vec!["--verbose"];
    verbose.extend(analyze);
    let (out, _) = text(&without_toolkit(&verbose, &dir));
    assert!(out.contains("looked for bin/ptxas in:"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim() == format!("{} (CUDA_HOME)", dir.join("no-toolkit-here").display())),
        "{out}"
    );

    // a .cu needs a compiler: the error is that sentence, on one line
    std::fs::write(
        dir.join("k.cu"),
        "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n",
    )
    .unwrap();
    let o = without_toolkit(
        &[
            "analyze",
            "k.cu",
            "--nvrtc",
            "/nonexistent",
            "--grid",
            "1",
            "--block",
            "32",
            "--arg",
            "buf:128",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o).1,
        format!("warpscope: cannot compile k.cu: {SENTENCE}\n")
    );
    std::fs::write(dir.join("app.cu"), "int main() { return 0; }\n").unwrap();
    let o = without_toolkit(&["run", "app.cu"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o).1,
        format!("warpscope: cannot build app.cu: {SENTENCE}\n")
    );

    // setup --check says what is missing and fails
    let o = without_toolkit(&["setup", "--check"], &dir);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.starts_with("CUDA tools: none found\n"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn setup_check_names_the_toolkit_and_the_runtime() {
    let root = cuda_root();
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["setup", "--check"])
        .env("WARPSCOPE_CUDA_ROOT", &root)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.starts_with(&format!(
            "CUDA tools: {root} (found by WARPSCOPE_CUDA_ROOT)\nruntime: "
        )),
        "{out}"
    );
    assert!(out.contains("libwarpscope_cudart.so\n"), "{out}");
}

const PROGRAM: &str = r#"#include <cstdio>
__global__ void transposeWithAFairlyLongKernelName(int *out, int n) {
    __shared__ int tile[32][32];
    tile[threadIdx.y][threadIdx.x] = threadIdx.y * 32 + threadIdx.x;
    __syncthreads();
    if (threadIdx.x < n) out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
int main() {
    int *d, h[1024];
    cudaMalloc(&d, sizeof h);
    for (int i = 0; i < 3; i++) transposeWithAFairlyLongKernelName<<<1, dim3(32, 32)>>>(d, 32);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[1] = %d\n", h[1]);
    return 0;
}
"#;

/// `warpscope run app.cu` (the program above) with `COLUMNS` and more flags.
fn run_with(dir: &Path, columns: &str, extra: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("run")
        .args(extra)
        .arg("app.cu")
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .env("COLUMNS", columns)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("out[1] = 32"), "{out}");
    out
}

#[test]
fn run_fits_the_terminal_and_csv_keeps_every_column() {
    let dir = scratch("width");
    std::fs::write(dir.join("app.cu"), PROGRAM).unwrap();
    let titles = [
        "shared ld inst",
        "ld wavefronts",
        "st wavefronts",
        "ld conflicts",
        "branch eff %",
        "gld sectors",
        "gst sectors",
        "theor. occupancy %",
        "regs",
    ];
    for columns in ["80", "120"] {
        let out = run_with(&dir, columns, &[]);
        let width: usize = columns.parse().unwrap();
        for l in out.lines() {
            assert!(
                l.chars().count() <= width,
                "COLUMNS={columns}: {} wide: {l}\n{out}",
                l.chars().count()
            );
        }
        // every counter of the kernel, one a line, with its value (ld wavefronts: 3 x 1024)
        for t in titles {
            assert!(out.lines().any(|l| l.trim_start().starts_with(t)), "{t}:\n{out}");
        }
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with("ld wavefronts") && l.trim_end().ends_with(" 3072")),
            "{out}"
        );
        assert!(out.contains(&format!("to fit {columns} columns")), "{out}");
    }
    // wide enough: the tables as they are
    let wide = run_with(&dir, "400", &[]);
    assert!(wide.contains("| id | kernel"), "{wide}");
    assert!(wide.contains("| shared ld inst |"), "{wide}");
    assert!(!wide.contains("to fit"), "{wide}");
    // CSV: every column, whatever the width
    let csv = run_with(&dir, "80", &["--format", "csv"]);
    let header = csv
        .lines()
        .find(|l| l.starts_with("id,kernel,"))
        .unwrap_or_else(|| panic!("{csv}"));
    for m in [
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__sass_branch_targets_threads_divergent.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "launch__registers_per_thread",
    ] {
        assert!(header.split(',').any(|c| c == m), "{m}: {header}");
    }
    assert_eq!(header.split(',').count(), 4 + 17, "{header}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `analyze` fits a known width (`COLUMNS`, or a terminal): the per-instruction table without its
/// banks picture, the pictures in a table of their own; piped without `COLUMNS` its tables keep
/// their full width, and CSV every column.
#[test]
fn analyze_fits_columns_and_keeps_the_banks() {
    let ptx = repo().join("crates/cli/fixtures/seeds/col32.ptx");
    let analyze = |columns: Option<&str>, extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_warpscope"));
        c.args([
            "analyze",
            ptx.to_str().unwrap(),
            "--grid",
            "1",
            "--block",
            "32,32",
            "--arg",
            "buf:4096",
        ])
        .args(extra)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .env_remove("COLUMNS");
        if let Some(w) = columns {
            c.env("COLUMNS", w);
        }
        let o = c.output().unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}{err}");
        out
    };
    let narrow = analyze(Some("80"), &[]);
    for l in narrow.lines() {
        assert!(
            l.chars().count() <= 80,
            "{} wide: {l}\n{narrow}",
            l.chars().count()
        );
    }
    // col32's column reads: 32 lanes in one bank, the picture on its own row, named by its pc
    assert!(
        narrow.contains("banks 0..31 of each instruction's worst request"),
        "{narrow}"
    );
    assert!(
        narrow
            .lines()
            .any(|l| l.contains("col32.cu:13") && l.contains("W...............................")),
        "{narrow}"
    );
    let wide = analyze(None, &[]);
    assert!(wide.contains("banks 0..31 of the worst request"), "{wide}");
    assert!(wide.lines().any(|l| l.chars().count() > 120), "{wide}");
    let csv = analyze(Some("80"), &["--format", "csv"]);
    assert!(
        csv.lines()
            .any(|l| l.starts_with("pc,ptx_line,source,ptx,fused,width,") && l.ends_with(",worst_banks")),
        "{csv}"
    );
}
