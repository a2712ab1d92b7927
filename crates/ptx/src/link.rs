//! Links the PTX of several translation units into one module, as `nvlink` links their machine
//! code for a program built with separate compilation (`nvcc -rdc=true a.cu b.cu`): a kernel of
//! one unit calls an `extern __device__` function of another, and reads or writes an `extern
//! __device__` or `__constant__` variable that a third defines.
//!
//! The units are joined in order under the first one's `.version`, `.target` and
//! `.address_size`. An `.extern` declaration is dropped where a unit defines the symbol, and kept
//! once otherwise (`vprintf`, a dynamic `extern __shared__` array); a `.weak` definition (a
//! template instantiated in two units) is kept once; a unit's internal symbol (no `.visible`,
//! `.weak` or `.common`: a `static` function, the math library's tables) that another unit also
//! defines is renamed in it (`name` becomes `name$uK`, K the unit's index). File numbers of
//! `.file` and `.loc` are offset per unit, so each unit's lines keep naming its own files. Module
//! scope text other than declarations (comments) is dropped; `.section`s (DWARF) are kept as they
//! are, renamed like the rest.
//!
//! Not handled: two units defining the same `.visible` symbol (a link error for `nvlink` too) is
//! refused.

use std::collections::{BTreeMap, BTreeSet};

use crate::lex::{Tok, Token, lex};

/// How far apart the units' file numbers are put.
const FILE_STRIDE: u64 = 100_000;

/// One module-scope item of a unit: its token range and, for a declaration, what it declares.
struct Item {
    /// First and one-past-last token.
    toks: (usize, usize),
    kind: ItemKind,
}

#[derive(Clone, PartialEq, Eq)]
enum ItemKind {
    /// `.version`, `.target`, `.address_size`.
    Header,
    /// `.file`, `.section`, `.pragma`: kept (renumbered, renamed).
    Other,
    /// A function or variable: its name, whether it is `.extern`, whether it is visible to other
    /// units (`.visible`, `.weak`, `.common`), whether it is `.weak`/`.common`, whether it is a
    /// function, and whether it defines the symbol (a function with a body, a variable that is not
    /// `.extern`).
    Decl {
        name: String,
        is_extern: bool,
        visible: bool,
        weak: bool,
        defines: bool,
    },
}

struct Unit<'a> {
    src: &'a str,
    toks: Vec<Token>,
    items: Vec<Item>,
}

impl<'a> Unit<'a> {
    fn text(&self, i: usize) -> &'a str {
        let t = self.toks[i];
        &self.src[t.start as usize..t.end as usize]
    }

    fn parse(src: &'a str, unit: usize) -> Result<Unit<'a>, String> {
        let toks = lex(src);
        let mut u = Unit {
            src,
            toks,
            items: Vec::new(),
        };
        let n = u.toks.len();
        let mut i = 0;
        while i < n {
            let start = i;
            let first = u.text(i);
            let tok = u.toks[i].tok;
            if tok != Tok::Directive {
                return Err(format!(
                    "unit {unit}: `{first}` at byte {} where a module-scope directive was expected",
                    u.toks[i].start
                ));
            }
            match first {
                ".version" | ".address_size" => {
                    i = (i + 2).min(n);
                    u.items.push(Item {
                        toks: (start, i),
                        kind: ItemKind::Header,
                    });
                }
                ".target" => {
                    i += 2;
                    while i + 1 < n && u.toks[i].tok == Tok::Comma {
                        i += 2;
                    }
                    i = i.min(n);
                    u.items.push(Item {
                        toks: (start, i),
                        kind: ItemKind::Header,
                    });
                }
                ".file" => {
                    i += 3;
                    while i + 1 < n && u.toks[i].tok == Tok::Comma {
                        i += 2;
                    }
                    i = i.min(n);
                    u.items.push(Item {
                        toks: (start, i),
                        kind: ItemKind::Other,
                    });
                }
                ".section" => {
                    while i < n && u.toks[i].tok != Tok::LBrace {
                        i += 1;
                    }
                    i = u.past_braces(i, unit)?;
                    u.items.push(Item {
                        toks: (start, i),
                        kind: ItemKind::Other,
                    });
                }
                ".pragma" => {
                    while i < n && u.toks[i].tok != Tok::Semi {
                        i += 1;
                    }
                    i = (i + 1).min(n);
                    u.items.push(Item {
                        toks: (start, i),
                        kind: ItemKind::Other,
                    });
                }
                _ => {
                    let (end, kind) = u.decl(i, unit)?;
                    i = end;
                    u.items.push(Item {
                        toks: (start, end),
                        kind,
                    });
                }
            }
        }
        Ok(u)
    }

    /// From the `{` at `i`: the token after its matching `}` (and a `;` right after it).
    fn past_braces(&self, mut i: usize, unit: usize) -> Result<usize, String> {
        let n = self.toks.len();
        let mut depth = 0usize;
        while i < n {
            match self.toks[i].tok {
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        i += 1;
                        if i < n && self.toks[i].tok == Tok::Semi {
                            i += 1;
                        }
                        return Ok(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(format!("unit {unit}: a `{{` without its `}}`"))
    }

    /// A declaration starting at token `i`: where it ends and what it declares.
    fn decl(&self, mut i: usize, unit: usize) -> Result<(usize, ItemKind), String> {
        let n = self.toks.len();
        let (mut is_extern, mut visible, mut weak) = (false, false, false);
        while i < n {
            match self.text(i) {
                ".extern" => is_extern = true,
                ".visible" => visible = true,
                ".weak" | ".common" => {
                    visible = true;
                    weak = true;
                }
                _ => break,
            }
            i += 1;
        }
        if i >= n {
            return Err(format!("unit {unit}: a declaration is cut short"));
        }
        let what = self.text(i);
        match what {
            ".entry" | ".func" => {
                i += 1;
                if i < n && self.toks[i].tok == Tok::LParen {
                    while i < n && self.toks[i].tok != Tok::RParen {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= n || self.toks[i].tok != Tok::Ident {
                    return Err(format!("unit {unit}: a `{what}` without a name"));
                }
                let name = self.text(i).to_string();
                // the prototype ends at `;`, the definition at its body's `}`
                while i < n && !matches!(self.toks[i].tok, Tok::Semi | Tok::LBrace) {
                    i += 1;
                }
                if i >= n {
                    return Err(format!("unit {unit}: `{name}` is cut short"));
                }
                let (end, body) = if self.toks[i].tok == Tok::Semi {
                    (i + 1, false)
                } else {
                    (self.past_braces(i, unit)?, true)
                };
                Ok((
                    end,
                    ItemKind::Decl {
                        name,
                        is_extern,
                        visible: visible || what == ".entry",
                        weak,
                        defines: body,
                    },
                ))
            }
            ".global" | ".const" | ".shared" | ".local" => {
                let mut name = None;
                while i < n && !matches!(self.toks[i].tok, Tok::Semi | Tok::Eq | Tok::LBracket) {
                    if self.toks[i].tok == Tok::Ident {
                        name = Some(self.text(i).to_string());
                    }
                    i += 1;
                }
                let Some(name) = name else {
                    return Err(format!("unit {unit}: a `{what}` variable without a name"));
                };
                let mut depth = 0usize;
                while i < n && !(depth == 0 && self.toks[i].tok == Tok::Semi) {
                    match self.toks[i].tok {
                        Tok::LBrace => depth += 1,
                        Tok::RBrace => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    i += 1;
                }
                if i >= n {
                    return Err(format!("unit {unit}: `{name}` has no `;`"));
                }
                Ok((
                    i + 1,
                    ItemKind::Decl {
                        name,
                        is_extern,
                        visible,
                        weak,
                        defines: !is_extern,
                    },
                ))
            }
            other => Err(format!("unit {unit}: unknown module-scope directive `{other}`")),
        }
    }
}

/// The names `.visible`, `.weak` or `.common` definitions of `text` give other units, and the
/// names its `.extern` declarations ask for (a unit that does not lex as PTX: both empty).
pub fn symbols(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut defines, mut wants) = (BTreeSet::new(), BTreeSet::new());
    if let Ok(u) = Unit::parse(text, 0) {
        for it in &u.items {
            if let ItemKind::Decl {
                name,
                is_extern,
                visible,
                defines: d,
                ..
            } = &it.kind
            {
                if *d && *visible {
                    defines.insert(name.clone());
                } else if *is_extern {
                    wants.insert(name.clone());
                }
            }
        }
    }
    (defines, wants)
}

/// Links `units` (PTX texts, in order) into one PTX text; the error names the unit (its index)
/// and the reason. One unit is returned as it is.
pub fn link(units: &[&str]) -> Result<String, String> {
    if units.len() == 1 {
        return Ok(units[0].to_string());
    }
    let parsed: Vec<Unit<'_>> = units
        .iter()
        .enumerate()
        .map(|(k, s)| Unit::parse(s, k))
        .collect::<Result<_, _>>()?;
    // who defines what: visible definitions (one unit each, weak ones the first), internal ones
    let mut visible_def: BTreeMap<&str, usize> = BTreeMap::new();
    let mut defs_in: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); parsed.len()];
    for (k, u) in parsed.iter().enumerate() {
        for it in &u.items {
            if let ItemKind::Decl {
                name,
                visible,
                weak,
                defines: true,
                ..
            } = &it.kind
            {
                defs_in[k].insert(name.as_str());
                if *visible {
                    match visible_def.get(name.as_str()) {
                        Some(&j) if j != k && !*weak => {
                            return Err(format!(
                                "`{name}` is defined in units {j} and {k} (a multiple definition)"
                            ));
                        }
                        Some(_) => {}
                        None => {
                            visible_def.insert(name.as_str(), k);
                        }
                    }
                }
            }
        }
    }
    let mut out = String::new();
    let mut kept_extern: BTreeSet<String> = BTreeSet::new();
    let mut kept_weak: BTreeSet<String> = BTreeSet::new();
    for (k, u) in parsed.iter().enumerate() {
        // this unit's internal definitions that another unit defines too
        let mut renames: BTreeMap<&str, String> = BTreeMap::new();
        for it in &u.items {
            if let ItemKind::Decl {
                name,
                visible: false,
                defines: true,
                ..
            } = &it.kind
            {
                let clash = visible_def.contains_key(name.as_str())
                    || defs_in
                        .iter()
                        .enumerate()
                        .any(|(j, d)| j < k && d.contains(name.as_str()));
                if clash {
                    renames.insert(name.as_str(), format!("{name}$u{k}"));
                }
            }
        }
        for it in &u.items {
            let skip = match &it.kind {
                ItemKind::Header => k > 0,
                // an extern some unit defines, or one kept already
                ItemKind::Decl {
                    name,
                    is_extern: true,
                    defines: false,
                    ..
                } => visible_def.contains_key(name.as_str()) || !kept_extern.insert(name.clone()),
                ItemKind::Decl {
                    name,
                    weak: true,
                    defines: true,
                    ..
                } => !kept_weak.insert(name.clone()),
                // a visible prototype of a function some unit defines: the definition is enough
                ItemKind::Decl {
                    name,
                    visible: true,
                    defines: false,
                    ..
                } => visible_def.contains_key(name.as_str()),
                _ => false,
            };
            if skip {
                continue;
            }
            u.emit(it, k as u64 * FILE_STRIDE, &renames, &mut out);
            out.push('\n');
        }
    }
    Ok(out)
}

impl Unit<'_> {
    /// Appends item `it`'s text: renamed tokens replaced, file numbers after `.file`, `.loc` and
    /// `inlined_at` offset by `file_offset`, the text between tokens kept.
    fn emit(&self, it: &Item, file_offset: u64, renames: &BTreeMap<&str, String>, out: &mut String) {
        let (a, b) = it.toks;
        let mut pos = self.toks[a].start as usize;
        let mut file_next = false;
        for i in a..b {
            let t = self.toks[i];
            let (s, e) = (t.start as usize, t.end as usize);
            out.push_str(&self.src[pos..s]);
            let text = &self.src[s..e];
            match t.tok {
                Tok::Ident if renames.contains_key(text) => out.push_str(&renames[text]),
                Tok::Dec if file_next && file_offset > 0 => {
                    let digits = text.trim_end_matches('U');
                    match digits.parse::<u64>() {
                        Ok(v) => out.push_str(&(v + file_offset).to_string()),
                        Err(_) => out.push_str(text),
                    }
                }
                _ => out.push_str(text),
            }
            file_next = matches!(text, ".file" | ".loc" | "inlined_at");
            pos = e;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = ".version 9.5\n.target sm_90\n.address_size 64\n";

    #[test]
    fn one_unit_is_returned_as_it_is() {
        let a = format!("{HEAD}// comment\n.visible .entry k()\n{{\n ret;\n}}\n");
        assert_eq!(link(&[&a]).unwrap(), a);
    }

    #[test]
    fn externs_resolve_to_other_units_and_internals_are_renamed() {
        let a = format!(
            "{HEAD}.extern .func (.param .b32 r) f\n(\n.param .b32 x\n)\n;\n.extern .global .align 4 .b8 g[16];\n\
             .extern .func (.param .b32 r) vprintf\n(\n.param .b64 a,\n.param .b64 b\n)\n;\n\
             .func helper()\n{{\n ret;\n}}\n.visible .entry k()\n{{\n.reg .b32 %r<2>;\n.loc 1 5 1\n call.uni helper, ();\n {{\n .param .b32 p;\n .param .b32 rv;\n st.param.b32 [p+0], 1;\n call.uni (rv), f, (p);\n ld.param.b32 %r1, [rv+0];\n }}\n ret;\n}}\n.file 1 \"a.cu\"\n"
        );
        let b = format!(
            "{HEAD}.extern .func (.param .b32 r) vprintf\n(\n.param .b64 a,\n.param .b64 b\n)\n;\n\
             .visible .global .align 4 .b8 g[16] = {{1, 2}};\n.func helper()\n{{\n ret;\n}}\n\
             .visible .func (.param .b32 r) f(\n.param .b32 x\n)\n{{\n.reg .b32 %r<2>;\n.loc 1 7 2, function_name $L__info_string0, inlined_at 2 3 4\n call.uni helper, ();\n ld.param.b32 %r1, [x+0];\n st.param.b32 [r+0], %r1;\n ret;\n}}\n\
             .file 1 \"b.cu\"\n.file 2 \"b.h\", 0, 0\n"
        );
        let l = link(&[&a, &b]).unwrap();
        assert_eq!(l.matches(".version").count(), 1, "{l}");
        assert!(
            !l.contains(".extern .global"),
            "the definition replaces the extern: {l}"
        );
        assert!(!l.contains(".extern .func (.param .b32 r) f"), "{l}");
        assert_eq!(
            l.matches("vprintf").count(),
            1,
            "an undefined extern is kept once: {l}"
        );
        // unit 1's helper is renamed where it is defined and called, unit 0's is not
        assert!(
            l.contains(".func helper()") && l.contains(".func helper$u1()"),
            "{l}"
        );
        assert!(
            l.contains("call.uni helper$u1, ();") && l.contains("call.uni helper, ();"),
            "{l}"
        );
        assert!(
            l.contains(".file 100001 \"b.cu\"") && l.contains(".file 100002 \"b.h\""),
            "{l}"
        );
        assert!(
            l.contains(".loc 100001 7 2, function_name $L__info_string0, inlined_at 100002 3 4"),
            "{l}"
        );
        assert!(l.contains(".loc 1 5 1") && l.contains(".file 1 \"a.cu\""), "{l}");
        // and it parses and lowers: the kernel calls across units
        let p = crate::compile(&l).unwrap_or_else(|e| panic!("{e:?}\n{l}"));
        assert_eq!(p.kernels.len(), 1);
    }

    #[test]
    fn weak_definitions_are_kept_once_and_visible_duplicates_refused() {
        let w = format!(
            "{HEAD}.weak .func t()\n{{\n ret;\n}}\n.visible .entry k{{}}()\n{{\n call.uni t, ();\n ret;\n}}\n"
        );
        let a = w.replace("k{}", "k1");
        let b = w.replace("k{}", "k2");
        let l = link(&[&a, &b]).unwrap();
        assert_eq!(l.matches(".weak .func t()").count(), 1, "{l}");
        assert_eq!(crate::compile(&l).unwrap().kernels.len(), 2);
        let v = format!("{HEAD}.visible .global .u32 x;\n");
        let e = link(&[&v, &v]).unwrap_err();
        assert!(e.contains("`x` is defined in units 0 and 1"), "{e}");
        let bad = format!("{HEAD}.visible .entry k()\n{{\n ret;\n");
        assert!(link(&[&bad, &v]).unwrap_err().contains("unit 0"));
    }

    #[test]
    fn symbols_lists_definitions_and_externs() {
        let a = format!(
            "{HEAD}.extern .func f()\n;\n.extern .shared .align 16 .b8 dyn[];\n.visible .global .u32 x;\n.global .u32 y;\n\
             .visible .entry k()\n{{\n ret;\n}}\n"
        );
        let (d, w) = symbols(&a);
        assert_eq!(d.into_iter().collect::<Vec<_>>(), ["k", "x"]);
        assert_eq!(w.into_iter().collect::<Vec<_>>(), ["dyn", "f"]);
    }
}
