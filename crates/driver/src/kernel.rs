//! Choosing the kernel of a module by the name a person writes: the plain name (`blockSum`), the
//! C++ name with template arguments (`blockSum<256>`), the full demangled signature
//! (`blockSum<256>(float const*, float*)`) or the mangled name (`_Z8blockSumILi256EEvPKfPf`). An
//! unknown or ambiguous name lists the candidates in demangled form. Demangling is the
//! `cpp_demangle` crate's.
//!
//! ```
//! use warpscope_driver::kernel::KernelName;
//! let k = KernelName::new("_Z8blockSumILi256EEvPKfPf");
//! assert_eq!(k.signature, "blockSum<256>(float const*, float*)");
//! assert_eq!(k.qualified, "blockSum<256>");
//! assert_eq!(k.plain, "blockSum");
//! ```

use cpp_demangle::{DemangleOptions, Symbol};

use crate::error::{Error, Result};

/// The names of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelName {
    /// As in the PTX (`.entry`): mangled, or plain for `extern "C"`.
    pub mangled: String,
    /// The signature without the return type (`blockSum<256>(float const*, float*)`); the plain name
    /// for `extern "C"` kernels.
    pub signature: String,
    /// The qualified name with template arguments, no parameters (`ns::blockSum<256>`).
    pub qualified: String,
    /// The qualified name without template arguments (`ns::blockSum`).
    pub plain: String,
}

/// `text` without its trailing `<...>` (balanced), if it ends with one.
fn strip_template_args(text: &str) -> &str {
    if !text.ends_with('>') {
        return text;
    }
    let mut depth = 0i32;
    for (i, c) in text.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return &text[..i];
                }
            }
            _ => {}
        }
    }
    text
}

impl KernelName {
    /// The names of the kernel `mangled` (a name that does not demangle is its own every name).
    pub fn new(mangled: &str) -> KernelName {
        let demangle = |opts: DemangleOptions| -> Option<String> {
            if !mangled.starts_with("_Z") {
                return None;
            }
            Symbol::new(mangled).ok()?.demangle(&opts).ok()
        };
        let signature = demangle(DemangleOptions::new().no_return_type());
        let qualified = demangle(DemangleOptions::new().no_params().no_return_type());
        match (signature, qualified) {
            (Some(signature), Some(qualified)) => {
                let plain = strip_template_args(&qualified).to_string();
                KernelName {
                    mangled: mangled.to_string(),
                    signature,
                    qualified,
                    plain,
                }
            }
            _ => KernelName {
                mangled: mangled.to_string(),
                signature: mangled.to_string(),
                qualified: mangled.to_string(),
                plain: mangled.to_string(),
            },
        }
    }

    /// How the kernel is shown to people: the signature for C++ kernels, the name otherwise.
    pub fn display(&self) -> &str {
        &self.signature
    }
}

/// `s` without white space, for comparing names as people type them.
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The last component of a qualified name (`blockSum` of `ns::blockSum`).
fn last_component(s: &str) -> &str {
    // Template arguments may hold `::` too; the plain name has none.
    s.rsplit("::").next().unwrap_or(s)
}

/// Picks the kernel named `wanted` among `kernels` (their `.entry` names), or the only kernel when
/// `wanted` is `None`. `file` names the module in errors. Returns the `.entry` name.
pub fn select(kernels: &[&str], wanted: Option<&str>, file: &str) -> Result<String> {
    let names: Vec<KernelName> = kernels.iter().map(|k| KernelName::new(k)).collect();
    let list = |names: &[&KernelName]| -> String {
        names
            .iter()
            .map(|n| n.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all: Vec<&KernelName> = names.iter().collect();
    let Some(wanted) = wanted else {
        return match names.as_slice() {
            [one] => Ok(one.mangled.clone()),
            [] => Err(Error::input(format!("{file}: no kernel (.entry) in the file"))),
            _ => Err(Error::input(format!(
                "{file}: several kernels, choose one with --kernel: {}",
                list(&all)
            ))),
        };
    };
    let w = squash(wanted);
    // From the most to the least specific form; the first form that matches decides.
    let forms: [&dyn Fn(&KernelName) -> bool; 6] = [
        &|n| n.mangled == wanted,
        &|n| squash(&n.signature) == w,
        &|n| squash(&n.qualified) == w,
        &|n| squash(last_component(&n.qualified)) == w && n.qualified.contains("::"),
        &|n| n.plain == wanted,
        &|n| last_component(&n.plain) == wanted,
    ];
    for form in forms {
        let hits: Vec<&KernelName> = names.iter().filter(|n| form(n)).collect();
        match hits.as_slice() {
            [] => continue,
            [one] => return Ok(one.mangled.clone()),
            many => {
                return Err(Error::input(format!(
                    "{file}: `{wanted}` names {} kernels: {}; name one with its template arguments \
                     or signature (for example --kernel '{}')",
                    many.len(),
                    list(many),
                    many[0].qualified
                )));
            }
        }
    }
    Err(Error::input(format!(
        "{file}: no kernel `{wanted}` (kernels: {})",
        list(&all)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: [&str; 4] = [
        "_Z8blockSumILi256EEvPKfPf",
        "_Z8blockSumILi128EEvPKfPf",
        "_Z15scaledTransposePKfPf4Dims",
        "plainC",
    ];

    #[test]
    fn every_form_of_a_name() {
        assert_eq!(select(&K, Some("blockSum<256>"), "f").unwrap(), K[0]);
        assert_eq!(select(&K, Some("blockSum< 128 >"), "f").unwrap(), K[1]);
        assert_eq!(
            select(&K, Some("blockSum<128>(float const*, float*)"), "f").unwrap(),
            K[1]
        );
        assert_eq!(select(&K, Some(K[0]), "f").unwrap(), K[0]);
        assert_eq!(select(&K, Some("scaledTranspose"), "f").unwrap(), K[2]);
        assert_eq!(select(&K, Some("plainC"), "f").unwrap(), K[3]);
        assert_eq!(select(&K[2..3], None, "f").unwrap(), K[2]);
    }

    #[test]
    fn ambiguous_and_unknown_names_list_the_candidates_demangled() {
        let e = select(&K, Some("blockSum"), "f.cu").unwrap_err().to_string();
        assert!(e.contains("names 2 kernels"), "{e}");
        assert!(e.contains("blockSum<256>(float const*, float*)"), "{e}");
        assert!(e.contains("blockSum<128>(float const*, float*)"), "{e}");
        let e = select(&K, Some("nope"), "f.cu").unwrap_err().to_string();
        assert!(
            e.starts_with("f.cu: no kernel `nope` (kernels: blockSum<256>"),
            "{e}"
        );
        assert!(e.contains("scaledTranspose(float const*, float*, Dims)"), "{e}");
        let e = select(&K, None, "f.cu").unwrap_err().to_string();
        assert!(e.contains("choose one with --kernel"), "{e}");
    }

    #[test]
    fn namespaces() {
        let k = ["_ZN2ns6kernelEPf"];
        assert_eq!(KernelName::new(k[0]).qualified, "ns::kernel");
        assert_eq!(select(&k, Some("kernel"), "f").unwrap(), k[0]);
        assert_eq!(select(&k, Some("ns::kernel"), "f").unwrap(), k[0]);
    }
}
