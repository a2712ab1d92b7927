//! Makes the CLI's crate root (crates/cli/src/main.rs) includable by the fuzz targets, so that they
//! parse the real `Cli` with every subcommand and reach the CLI's modules as the binary does:
//! `mod X;` lines get absolute `#[path]`s, inner doc comments are dropped and `main` is renamed.

use std::path::Path;

fn main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/cli/src");
    let src = src.canonicalize().expect("crates/cli/src");
    let main_rs = src.join("main.rs");
    println!("cargo::rerun-if-changed={}", main_rs.display());
    let text = std::fs::read_to_string(&main_rs).expect("read main.rs");
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("//!") || t.starts_with("#![") {
            continue;
        }
        let module = t
            .strip_prefix("pub mod ")
            .or_else(|| t.strip_prefix("mod "))
            .and_then(|r| r.strip_suffix(';'));
        if let Some(name) = module {
            let file = if src.join(name).join("mod.rs").exists() {
                src.join(name).join("mod.rs")
            } else {
                src.join(format!("{name}.rs"))
            };
            out.push_str(&format!("#[path = {:?}]\n{line}\n", file.display().to_string()));
            continue;
        }
        out.push_str(&line.replace("fn main()", "fn cli_main()"));
        out.push('\n');
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("cli_main.rs");
    std::fs::write(dest, out).expect("write cli_main.rs");
}
