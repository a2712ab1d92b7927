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

/// `{"bank": {"status": "measured", "detail": ..., "table": ...}, "occupancy": {...}}`.
pub fn json(arch: &Arch) -> Value {
    let p = arch.provenance();
    json!({ "bank": one(&p.bank), "occupancy": one(&p.occupancy) })
}

/// `sm_80 rules: bank assumed (sm_90's measured rule, ...); occupancy documented (...)`.
pub fn line(arch: &Arch) -> String {
    let p = arch.provenance();
    format!(
        "{} rules: bank {}; occupancy {}",
        arch.name,
        p.bank.describe(),
        p.occupancy.describe()
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
}
