//! Reading an instruction's opcode off its PTX text (the checkers classify instructions by it).

/// The opcode of the PTX instruction `text` without its guard predicate, split at its dots:
/// `@%p1 atom.acq_rel.gpu.add.u32 ...` gives `("atom", ["acq_rel", "gpu", "add", "u32"])`.
pub(crate) fn opcode(text: &str) -> (&str, Vec<&str>) {
    let mut t = text.trim_start();
    if t.starts_with('@') {
        t = t.split_once(char::is_whitespace).map_or("", |x| x.1.trim_start());
    }
    let op = t
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or("");
    let mut parts = op.split('.');
    let head = parts.next().unwrap_or("");
    (head, parts.collect())
}

/// The operands of the instruction `text` (after the opcode, split at commas, trimmed).
pub(crate) fn operands(text: &str) -> Vec<&str> {
    let mut t = text.trim_start();
    if t.starts_with('@') {
        t = t.split_once(char::is_whitespace).map_or("", |x| x.1.trim_start());
    }
    let rest = t.split_once(char::is_whitespace).map_or("", |x| x.1);
    let rest = rest.split(';').next().unwrap_or("").trim();
    if rest.is_empty() {
        return Vec::new();
    }
    rest.split(',').map(str::trim).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_guard_goes_and_the_modifiers_stay_in_order() {
        assert_eq!(
            super::opcode("  @%p1 atom.acq_rel.gpu.add.u32 %r1, [%rd2], 1;"),
            ("atom", vec!["acq_rel", "gpu", "add", "u32"])
        );
        assert_eq!(super::opcode("bar.sync 0;"), ("bar", vec!["sync"]));
        assert_eq!(super::opcode("ret;"), ("ret", vec![]));
    }
}
