//! The launch description language shared by `warpscope analyze`, the tour and the calibration
//! manifest: dimensions `X[,Y[,Z]]` and kernel arguments
//! `u32:V i32:V u64:V i64:V f32:V f64:V`, `buf:BYTES` (deterministic pseudo-random bytes),
//! `buf:BYTES:zero`, `buf:@FILE` (a file's bytes).
//!
//! ```
//! use warpscope_analysis::launchspec::{parse_arg, parse_dims};
//! assert_eq!(parse_dims("32,8").unwrap(), [32, 8, 1]);
//! assert_eq!(parse_arg("u32:7", 0).unwrap(), warpscope_emu::Arg::U32(7));
//! ```

use warpscope_emu::Arg;

/// A launch description that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}`: {reason}")]
pub struct SpecError {
    /// The offending text.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

fn err(text: &str, reason: impl Into<String>) -> SpecError {
    SpecError {
        text: text.to_string(),
        reason: reason.into(),
    }
}

/// `X`, `X,Y` or `X,Y,Z` (each at least 1; missing ones are 1). `x` also separates.
pub fn parse_dims(text: &str) -> Result<[u32; 3], SpecError> {
    let parts: Vec<&str> = text.split([',', 'x']).map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(err(text, "expected X[,Y[,Z]]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .parse()
            .map_err(|_| err(text, format!("`{p}` is not a whole number")))?;
        if d[i] == 0 {
            return Err(err(text, "dimensions must be at least 1"));
        }
    }
    Ok(d)
}

/// Deterministic pseudo-random bytes (splitmix64 seeded by `seed`).
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5EED;
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(n);
    out
}

/// Parses one `--arg` spec; `index` (the argument's position) seeds `buf:BYTES`.
pub fn parse_arg(text: &str, index: usize) -> Result<Arg, SpecError> {
    let (kind, value) = text
        .split_once(':')
        .ok_or_else(|| err(text, "expected KIND:VALUE"))?;
    let num = |v: &str| -> Result<i128, SpecError> {
        let v = v.trim();
        let parsed = match v.strip_prefix("0x") {
            Some(h) => i128::from_str_radix(h, 16),
            None => v.parse::<i128>(),
        };
        parsed.map_err(|_| err(text, format!("`{v}` is not an integer")))
    };
    let range = |v: i128, lo: i128, hi: i128| {
        if v < lo || v > hi {
            Err(err(text, format!("{v} is out of range for {kind}")))
        } else {
            Ok(v)
        }
    };
    Ok(match kind {
        "u32" => Arg::U32(range(num(value)?, 0, i128::from(u32::MAX))? as u32),
        "i32" => Arg::I32(range(num(value)?, i128::from(i32::MIN), i128::from(i32::MAX))? as i32),
        "u64" => Arg::U64(range(num(value)?, 0, i128::from(u64::MAX))? as u64),
        "i64" => Arg::I64(range(num(value)?, i128::from(i64::MIN), i128::from(i64::MAX))? as i64),
        "f32" => Arg::F32(value.trim().parse().map_err(|_| err(text, "not a number"))?),
        "f64" => Arg::F64(value.trim().parse().map_err(|_| err(text, "not a number"))?),
        "buf" => {
            if let Some(path) = value.strip_prefix('@') {
                let bytes = std::fs::read(path).map_err(|e| err(text, format!("cannot read {path}: {e}")))?;
                Arg::Buffer(bytes)
            } else {
                let (size, fill) = match value.split_once(':') {
                    Some((s, f)) => (s, Some(f)),
                    None => (value, None),
                };
                let n = range(num(size)?, 0, 1 << 32)? as usize;
                match fill {
                    None => Arg::Buffer(random_bytes(n, index as u64)),
                    Some("zero") => Arg::Buffer(vec![0; n]),
                    Some(f) => return Err(err(text, format!("unknown fill `{f}` (use `zero`)"))),
                }
            }
        }
        _ => {
            return Err(err(
                text,
                format!("unknown kind `{kind}` (u32 i32 u64 i64 f32 f64 buf)"),
            ));
        }
    })
}

/// Parses a whitespace-separated list of specs (the manifest's `args` column).
pub fn parse_args(text: &str) -> Result<Vec<Arg>, SpecError> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, a)| parse_arg(a, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(parse_dims("4").unwrap(), [4, 1, 1]);
        assert_eq!(parse_dims("2x3x4").unwrap(), [2, 3, 4]);
        assert!(parse_dims("0").is_err());
        assert!(parse_dims("a,b").unwrap_err().to_string().contains("`a`"));
        assert_eq!(parse_arg("i32:-5", 0).unwrap(), Arg::I32(-5));
        assert_eq!(parse_arg("u64:0x10", 0).unwrap(), Arg::U64(16));
        assert_eq!(parse_arg("f32:1.5", 0).unwrap(), Arg::F32(1.5));
        assert_eq!(parse_arg("buf:4:zero", 0).unwrap(), Arg::Buffer(vec![0; 4]));
        let Arg::Buffer(a) = parse_arg("buf:64", 1).unwrap() else {
            panic!()
        };
        let Arg::Buffer(b) = parse_arg("buf:64", 1).unwrap() else {
            panic!()
        };
        assert_eq!(a, b, "deterministic");
        assert_eq!(a.len(), 64);
        assert!(a.iter().any(|&x| x != 0));
        assert!(parse_arg("u32:-1", 0).is_err());
        assert!(
            parse_arg("q:1", 0)
                .unwrap_err()
                .to_string()
                .contains("unknown kind")
        );
        assert!(
            parse_arg("buf:@/nonexistent/x", 0)
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
    }
}
