//! Whether a preset's rules are measured, assumed or documented (`warpscope_model::arch::Arch::provenance`),
//! as every output that uses a preset shows it: a JSON field `rules_basis` and a line for people.

use serde_json::{Value, json};
use warpscope_model::arch::{Arch, Basis};

fn one(b: &Basis) -> Value {
    let mut v = json!({ "status": b.status(), "detail": b.describe() });
    match b {
        Basis::Measured { device, table } => {
            v["device"] = json!(device);
            v["table"] = json!(table);
        }
        Basis::Assumed { like } => v["like"] = json!(like),
        Basis::Documented { source } => v["source"] = json!(source),
    }
    v
}

fn unavailable(instruction: &str, since: u32) -> String {
    format!(
        "unavailable: {instruction} needs compute capability {}.{} or later",
        since / 10,
        since % 10
    )
}

fn matrix_one(instruction: &str, since: u32, b: Option<Basis>) -> Value {
    match b {
        Some(b) => one(&b),
        None => json!({ "status": "unavailable", "detail": unavailable(instruction, since) }),
    }
}

/// `{"bank": {"status": "measured", "detail": ..., "table": ...}, "occupancy": {...},
/// "ldmatrix": {...}, "stmatrix": {...}, "cp_async": {...}}` (the last three `unavailable` where
/// the instruction does not exist).
pub fn json(arch: &Arch) -> Value {
    let p = arch.provenance();
    let mut v = json!({ "bank": one(&p.bank), "occupancy": one(&p.occupancy) });
    for (name, since, b) in p.matrix_rules() {
        v[name.replace('.', "_")] = matrix_one(name, since, b);
    }
    v
}

/// The matrix rules in a few words: `ldmatrix, stmatrix, cp.async measured on ... (calibration/ldsm/)`,
/// instructions of one basis grouped.
pub fn matrix_line(arch: &Arch) -> String {
    let p = arch.provenance();
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (name, since, b) in p.matrix_rules() {
        let d = b.map_or_else(|| unavailable(name, since), |b| b.describe());
        let d = d.replacen(&format!("unavailable: {name} needs"), "unavailable: needs", 1);
        match groups.iter_mut().find(|(k, _)| *k == d) {
            Some((_, v)) => v.push(name),
            None => groups.push((d, vec![name])),
        }
    }
    groups
        .iter()
        .map(|(d, v)| format!("{} {d}", v.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `sm_80 rules: bank assumed (sm_90's measured rule, ...); occupancy documented (...); ldmatrix,
/// cp.async assumed (...); stmatrix unavailable (...)`.
pub fn line(arch: &Arch) -> String {
    let p = arch.provenance();
    format!(
        "{} rules: bank {}; occupancy {}; {}",
        arch.name,
        p.bank.describe(),
        p.occupancy.describe(),
        matrix_line(arch)
    )
}

/// The preset named `name` (`sm_90`, ...), if there is one.
pub fn arch_named(name: &str) -> Option<&'static Arch> {
    Arch::parse(name).ok()
}

/// The preset of compute capability `major.minor`, if there is one.
pub fn arch_of(major: u64, minor: u64) -> Option<&'static Arch> {
    Arch::parse(&format!("{major}.{minor}")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_and_assumed_presets_say_so() {
        let h = json(Arch::parse("sm_90").unwrap());
        assert_eq!(h["bank"]["status"], "measured");
        assert_eq!(h["bank"]["table"], "calibration/bank/");
        let a = json(Arch::parse("sm_80").unwrap());
        assert_eq!(a["bank"]["status"], "assumed");
        assert_eq!(a["bank"]["like"], "sm_90");
        assert!(line(Arch::parse("sm_120").unwrap()).contains("bank assumed"));
    }

    #[test]
    fn matrix_rules_say_measured_assumed_or_unavailable() {
        let h = json(Arch::parse("sm_90").unwrap());
        for k in ["ldmatrix", "stmatrix", "cp_async"] {
            assert_eq!(h[k]["status"], "measured", "{k}");
            assert_eq!(h[k]["table"], "calibration/ldsm/", "{k}");
        }
        let a = json(Arch::parse("sm_80").unwrap());
        assert_eq!(a["ldmatrix"]["status"], "assumed");
        assert_eq!(a["cp_async"]["like"], "sm_90");
        assert_eq!(a["stmatrix"]["status"], "unavailable");
        assert!(a["stmatrix"]["detail"].as_str().unwrap().contains("9.0"));
        let l = line(Arch::parse("sm_90").unwrap());
        assert!(
            l.contains(
                "ldmatrix, stmatrix, cp.async measured on H100 80GB HBM3 (CC 9.0) (calibration/ldsm/)"
            ),
            "{l}"
        );
        let l = line(Arch::parse("sm_75").unwrap());
        assert!(l.contains("ldmatrix assumed"), "{l}");
        assert!(
            l.contains("stmatrix unavailable: needs compute capability 9.0"),
            "{l}"
        );
        assert!(
            l.contains("cp.async unavailable: needs compute capability 8.0"),
            "{l}"
        );
    }
}
