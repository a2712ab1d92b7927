//! A whole program (host code, `<cstdio>`, `main`) with a header found through `-I`, a macro from
//! `-D`, `blockSum<256>` and `blockSum<128>` and a struct-by-value kernel: `analyze`, `check` and
//! `fix` take the `.cu` as it is (NVRTC compiles device code only, so nvcc builds it), and
//! `warpscope run` builds and runs it with the same `-I`/`-D`. Needs the CUDA wheels
//! (`WARPSCOPE_CUDA_ROOT`); without them it fails, saying so.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/program")
}

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .current_dir(data())
        .env(
            "WARPSCOPE_CUDA_ROOT",
            std::env::var("WARPSCOPE_CUDA_ROOT")
                .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)"),
        )
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_whole_program_goes_through_every_command() {
    let flags = ["-I", "include", "-D", "SCALE=3"];
    let sum = [
        "--grid",
        "4",
        "--block",
        "256",
        "--arg",
        "buf:4096",
        "--arg",
        "buf:16:zero",
    ];
    let mut a = vec![
        "analyze",
        "frames.cu",
        "--kernel",
        "blockSum<256>",
        "--format",
        "json",
    ];
    a.extend(flags);
    a.extend(sum);
    let o = warpscope(&a);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kernel"], "_Z8blockSumILi256EEvPKfPf");
    // An unqualified template name lists both instantiations.
    let mut c = vec!["check", "frames.cu", "--kernel", "blockSum"];
    c.extend(flags);
    c.extend(sum);
    let o = warpscope(&c);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("blockSum<256>(float const*, float*), blockSum<128>(float const*, float*)"),
        "{}",
        text(&o)
    );
    // The struct-by-value kernel: Frame { int, int, float[2], float4 } is 32 bytes; its column
    // read of a 32x32 tile is padded by one float per row.
    let mut f = vec![
        "fix",
        "frames.cu",
        "--kernel",
        "applyGain",
        "--grid",
        "1",
        "--block",
        "32,32",
        "--arg",
        "struct:i32:32,i32:32,f32[2]:2,0.5,float4:1,0,0,0",
        "--arg",
        "buf:4096",
    ];
    f.extend(flags);
    let o = warpscope(&f);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("kernel applyGain(Frame, float*)"),
        "{}",
        text(&o)
    );
    assert!(
        text(&o).contains("rows of 32 elements get 1 more"),
        "{}",
        text(&o)
    );
    // The program itself, with the same flags: its own check passes under the emulator.
    let mut r = vec!["run", "--fix"];
    r.extend(flags);
    r.push("frames.cu");
    let o = warpscope(&r);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Test PASSED"), "{}", text(&o));
    assert!(text(&o).contains("3 launches recorded"), "{}", text(&o));
}
