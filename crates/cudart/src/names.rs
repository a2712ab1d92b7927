//! Kernel names as Nsight Compute prints them: demangled (`cpp_demangle`), with its spacing of
//! parameter types (`float *`, `const int *`, `unsigned long`).

/// The demangled name in Nsight Compute's style; a name that does not demangle is returned as is.
pub fn ncu_name(mangled: &str) -> String {
    let Ok(sym) = cpp_demangle::Symbol::new(mangled) else {
        return mangled.to_string();
    };
    let Ok(text) = sym.demangle(&cpp_demangle::DemangleOptions::default()) else {
        return mangled.to_string();
    };
    // Nsight Compute prints an `unsigned int` template argument as the bare number.
    let text = text.replace("(unsigned int)", "");
    // the parameter list opens at the first `(` outside template arguments
    let mut angle = 0i32;
    let open = text.char_indices().find_map(|(i, c)| {
        match c {
            '<' => angle += 1,
            '>' => angle -= 1,
            '(' if angle == 0 => return Some(i),
            _ => {}
        }
        None
    });
    let Some(open) = open else {
        return text;
    };
    let Some(close) = text.rfind(')') else {
        return text;
    };
    let (head, params) = (&text[..open], &text[open + 1..close]);
    let tail = &text[close + 1..];
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in params.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(param(cur.trim()));
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(param(cur.trim()));
    }
    format!("{head}({}){tail}", out.join(", "))
}

/// `int const*` → `const int *`, `float*` → `float *`, `float* __restrict__` → `float *__restrict__`.
fn param(p: &str) -> String {
    let stars = p.trim_end_matches(['*', '&', ' ']);
    let suffix = p[stars.len()..].replace(' ', "");
    let (base, constq) = match stars.strip_suffix(" const") {
        Some(b) => (b, true),
        None => (stars, false),
    };
    let base = if constq {
        format!("const {base}")
    } else {
        base.to_string()
    };
    if suffix.is_empty() {
        base
    } else {
        format!("{base} {suffix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_ncu_prints() {
        assert_eq!(ncu_name("_Z13setRowReadRowPi"), "setRowReadRow(int *)");
        assert_eq!(
            ncu_name("_Z11mathKernel3PfPKi"),
            "mathKernel3(float *, const int *)"
        );
        assert_eq!(
            ncu_name("_Z7pitchedPfmii"),
            "pitched(float *, unsigned long, int, int)"
        );
        assert_eq!(ncu_name("_Z5counti"), "count(int)");
        assert_eq!(ncu_name("plain_c_name"), "plain_c_name");
        // as ncu printed them on the H100 (calibration/run/h100/book.ncu.csv and a reduction
        // template with an unsigned block size)
        assert_eq!(
            ncu_name("_Z20reduceCompleteUnrollILj512EEvPiS0_j"),
            "void reduceCompleteUnroll<512>(int *, int *, unsigned int)"
        );
        assert_eq!(
            ncu_name("_Z13transposeSmemILi1EEvPKfPfii"),
            "void transposeSmem<1>(const float *, float *, int, int)"
        );
    }
}
