//! `warpscope bank --expr`: a byte-offset expression in `lane` (integers, `+ - * / % & | ^ << >>`,
//! parentheses, unary minus), parsed once and evaluated per lane.

use anyhow::{anyhow, bail};

/// A byte-offset expression in `lane` (hand-written precedence climbing, C precedence).
#[derive(Debug)]
pub enum Expr {
    Num(i64),
    Lane,
    Neg(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
}

const LEVELS: &[&[&str]] = &[
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Expr {
    pub fn parse(text: &str) -> anyhow::Result<Expr> {
        let toks = lex(text)?;
        let mut pos = 0;
        let e = parse_level(&toks, &mut pos, 0)?;
        if pos != toks.len() {
            bail!("unexpected `{}` at position {}", toks[pos].1, toks[pos].0 + 1);
        }
        Ok(e)
    }

    pub fn eval(&self, lane: i64) -> anyhow::Result<i64> {
        Ok(match self {
            Expr::Num(n) => *n,
            Expr::Lane => lane,
            Expr::Neg(e) => e.eval(lane)?.checked_neg().ok_or_else(|| anyhow!("overflow"))?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(lane)?, b.eval(lane)?);
                let r = match *op {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "/" | "%" if b == 0 => bail!("division by zero"),
                    "/" => a.checked_div(b),
                    "%" => a.checked_rem(b),
                    "&" => Some(a & b),
                    "|" => Some(a | b),
                    "^" => Some(a ^ b),
                    "<<" => u32::try_from(b).ok().and_then(|s| a.checked_shl(s)),
                    ">>" => u32::try_from(b).ok().and_then(|s| a.checked_shr(s)),
                    _ => unreachable!("operators come from LEVELS"),
                };
                r.ok_or_else(|| anyhow!("overflow in `{op}`"))?
            }
        })
    }
}

fn lex(text: &str) -> anyhow::Result<Vec<(usize, String)>> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut toks = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            toks.push((s, text[s..i].to_string()));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[s..i];
            if word != "lane" {
                bail!(
                    "unknown name `{word}` at position {} (only `lane` is known)",
                    s + 1
                );
            }
            toks.push((s, word.to_string()));
        } else if text[i..].starts_with("<<") || text[i..].starts_with(">>") {
            toks.push((i, text[i..i + 2].to_string()));
            i += 2;
        } else if b"+-*/%&|^()".contains(&c) {
            toks.push((i, (c as char).to_string()));
            i += 1;
        } else {
            bail!(
                "unexpected character `{}` at position {}",
                &text[i..].chars().next().unwrap_or('?'),
                i + 1
            );
        }
    }
    Ok(toks)
}

fn parse_level(toks: &[(usize, String)], pos: &mut usize, level: usize) -> anyhow::Result<Expr> {
    if level == LEVELS.len() {
        return parse_unary(toks, pos);
    }
    let mut lhs = parse_level(toks, pos, level + 1)?;
    while let Some(op) = toks
        .get(*pos)
        .and_then(|t| LEVELS[level].iter().find(|o| **o == t.1))
    {
        *pos += 1;
        let rhs = parse_level(toks, pos, level + 1)?;
        lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
    }
    Ok(lhs)
}

fn parse_unary(toks: &[(usize, String)], pos: &mut usize) -> anyhow::Result<Expr> {
    let Some((at, t)) = toks.get(*pos) else {
        bail!("expression ends too early")
    };
    *pos += 1;
    match t.as_str() {
        "-" => Ok(Expr::Neg(Box::new(parse_unary(toks, pos)?))),
        "(" => {
            let e = parse_level(toks, pos, 0)?;
            match toks.get(*pos) {
                Some((_, c)) if c == ")" => {
                    *pos += 1;
                    Ok(e)
                }
                _ => bail!("`(` at position {} is not closed", at + 1),
            }
        }
        "lane" => Ok(Expr::Lane),
        s if s.as_bytes()[0].is_ascii_digit() => {
            let v = if let Some(h) = s.strip_prefix("0x") {
                i64::from_str_radix(h, 16)
            } else {
                s.parse::<i64>()
            };
            Ok(Expr::Num(v.map_err(|_| {
                anyhow!("bad number `{s}` at position {}", at + 1)
            })?))
        }
        s => bail!("unexpected `{s}` at position {}", at + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(e: &str, lane: i64) -> i64 {
        Expr::parse(e).unwrap().eval(lane).unwrap()
    }

    #[test]
    fn expressions() {
        assert_eq!(eval("lane*33*4", 3), 396);
        assert_eq!(eval("(lane ^ 1) << 3", 2), 24);
        assert_eq!(eval("lane / 2 * 8 + 4 % 3", 5), 17);
        assert_eq!(eval("1 | 2 & 3", 0), 3);
        assert_eq!(eval("-lane + 40", 8), 32);
        assert_eq!(eval("0x10 + lane", 1), 17);
        assert_eq!(eval("lane >> 1 << 1", 7), 6);
        for bad in ["lane +", "(lane", "tid*4", "lane $ 2", "3 4"] {
            assert!(Expr::parse(bad).is_err(), "{bad}");
        }
        assert!(Expr::parse("lane / 0").unwrap().eval(1).is_err());
    }
}
