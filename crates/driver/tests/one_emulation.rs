//! A request runs the emulator exactly once, whatever the sections it asks for (the driver counts
//! its emulations; this file holds one test so that no other test runs beside it in this process).

use std::path::PathBuf;

use warpscope_driver::{Request, Sections, WidthsFrom, analyze, run::emulations};
use warpscope_model::arch::Arch;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

#[test]
fn a_request_emulates_once_whatever_the_sections() {
    let arch = Arch::parse("sm_90").unwrap();
    let mut req = Request::new(
        repo("crates/cli/fixtures/classic/matmulTiled.ptx"),
        [4, 4, 1],
        [16, 16, 1],
        arch,
    );
    req.args = vec!["buf:16384".into(), "buf:16384".into(), "buf:16384".into()];
    req.widths = WidthsFrom::Sass {
        text: std::fs::read_to_string(repo("crates/cli/fixtures/classic/matmulTiled.sass")).unwrap(),
        from: "matmulTiled.sass".into(),
    };
    for sections in ["banks", "hazards", "fix", "banks,divergence,hazards,fix", "all"] {
        req.sections = Sections::parse(sections).unwrap();
        let before = emulations();
        let a = analyze(&req).unwrap();
        assert_eq!(emulations() - before, 1, "{sections}");
        assert_eq!(a.results.banks.is_some(), req.sections.banks, "{sections}");
        assert_eq!(
            a.results.divergence.is_some(),
            req.sections.divergence,
            "{sections}"
        );
        assert_eq!(a.results.hazards.is_some(), req.sections.hazards, "{sections}");
        assert_eq!(a.results.fix.is_some(), req.sections.fix, "{sections}");
    }
    // The occupancy alone needs no emulation.
    req.sections = Sections::parse("occupancy").unwrap();
    let before = emulations();
    let a = analyze(&req).unwrap();
    assert_eq!(emulations(), before);
    assert_eq!(a.results.blocks_emulated, 0);
}
