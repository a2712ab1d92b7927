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

/// `int const*` → `const int *`, `float*` → `float *`, `float* __restrict__` → `float *__restrict__`,
/// `char const* const*` → `const char *const *`: the base type's qualifier in front, the pointer
/// levels' qualifiers after their `*`, a space after a qualifier that more pointer levels follow.
fn param(p: &str) -> String {
    let split = p.find(['*', '&']).unwrap_or(p.len());
    let (base, decl) = (p[..split].trim(), &p[split..]);
    let base = match base.strip_suffix(" const") {
        Some(b) => format!("const {b}"),
        None => base.to_string(),
    };
    if decl.is_empty() {
        return base;
    }
    let mut out = String::new();
    let mut word = String::new();
    for c in decl.chars() {
        match c {
            '*' | '&' => {
                if !word.is_empty() {
                    out.push_str(&word);
                    out.push(' ');
                    word.clear();
                }
                out.push(c);
            }
            ' ' => {
                if !word.is_empty() {
                    out.push_str(&word);
                    out.push(' ');
                    word.clear();
                }
            }
            _ => word.push(c),
        }
    }
    out.push_str(&word);
    format!("{base} {}", out.trim_end())
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
        // calibration/printf/h100/printf.ncu.csv: a pointer to const pointers to const chars
        assert_eq!(ncu_name("_Z8strLanesPKPKc"), "strLanes(const char *const *)");
        assert_eq!(ncu_name("_Z6strPatPKPKci"), "strPat(const char *const *, int)");
        assert_eq!(ncu_name("_Z1fPPi"), "f(int **)");
    }
}

/// A kernel name short enough for a message or a section header: names of at most 72 characters
/// as they are; longer ones without the parameter list (`(…)`), template arguments nested more
/// than one level deep elided (`GemmUniversal<…>`), a leading `void ` dropped, and cut at 100
/// characters (`…`). Tables, exports and CSV keep the full name.
pub fn brief(name: &str) -> String {
    const KEEP: usize = 72;
    const MAX: usize = 100;
    if name.chars().count() <= KEEP {
        return name.to_string();
    }
    let name = name.strip_prefix("void ").unwrap_or(name);
    let mut out = String::new();
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '<' => {
                depth += 1;
                if depth == 2 {
                    out.push_str("<…");
                    continue;
                }
            }
            '>' => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    out.push('>');
                    continue;
                }
            }
            // the parameter list (outside every template argument list) ends the name
            '(' if depth == 0 => {
                out.push_str("(…)");
                break;
            }
            _ => {}
        }
        if depth < 2 {
            out.push(c);
        }
    }
    if out.chars().count() > MAX {
        out = out.chars().take(MAX - 1).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod brief_tests {
    use super::brief;

    #[test]
    fn short_names_stay_as_they_are() {
        assert_eq!(
            brief("transpose(float *, const float *, int)"),
            "transpose(float *, const float *, int)"
        );
    }

    #[test]
    fn long_template_names_keep_their_first_level() {
        let long = "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, \
                    cutlass::gemm::collective::CollectiveMma<cute::C<2>>>>(cutlass::gemm::kernel::GemmUniversal<cute::tuple<int>>::Params)";
        assert_eq!(
            brief(long),
            "cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<…>>(…)"
        );
    }

    #[test]
    fn long_plain_names_are_cut() {
        let long = format!("k{}(int)", "x".repeat(150));
        let b = brief(&long);
        assert_eq!(b.chars().count(), 100);
        assert!(b.ends_with('…'), "{b}");
    }
}
