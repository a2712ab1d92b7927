//! Findings grouped for people, as compute-sanitizer groups its reports: one group per (kind,
//! severity, the source lines involved, same warp or not), with the total count, the byte range of
//! the members' examples, and one example. The race tracker reports one finding per pair of
//! instructions, so an unrolled loop over a shared array gives one finding per unrolled copy, each
//! with its own byte; the group folds them into one row. The full list stays available (JSON).
//!
//! A pure function of the findings: [`group`].

use serde::Serialize;
use warpscope_analysis::hazards::{Example, Finding, FindingKind, Severity};

/// Findings that differ only in instruction copies and bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// What was found.
    pub kind: FindingKind,
    /// How bad it is.
    pub severity: Severity,
    /// The source lines involved (for a race: the first access's, then the second's).
    pub lines: Vec<u32>,
    /// The source file of the last line, when known (base name).
    pub file: Option<String>,
    /// For races: both threads of the example are in one warp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_warp: Option<bool>,
    /// Findings in the group.
    pub findings: usize,
    /// Total count over the group (byte accesses for races and reads, ...).
    pub count: u64,
    /// Lowest and highest byte of the members' examples, when they have addresses.
    pub bytes: Option<[u64; 2]>,
    /// The first member's example.
    pub example: Example,
    /// The first member's message, its byte widened to the group's range and mangled names in
    /// backquotes demangled (`` `_ZZ10racyReducePKiPiE9local_mem` `` reads
    /// `` `racyReduce(int const*, int*)::local_mem` ``).
    pub message: String,
    /// Indices of the members in the findings list.
    pub members: Vec<usize>,
}

#[derive(PartialEq, Eq)]
struct Key {
    kind: FindingKind,
    severity: Severity,
    /// Source lines, or the pcs when the PTX has no line information.
    place: (bool, Vec<u32>),
    same_warp: Option<bool>,
}

fn same_warp(f: &Finding) -> Option<bool> {
    match (f.kind, f.example.threads.as_slice()) {
        (FindingKind::Race, [a, b, ..]) => Some(a / 32 == b / 32),
        _ => None,
    }
}

/// Groups `findings` (in their order: a group sits where its first member sits). `file_of(pc)` names
/// an instruction's source file.
pub fn group(findings: &[Finding], file_of: &dyn Fn(u32) -> Option<String>) -> Vec<Group> {
    let mut keys: Vec<Key> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let key = Key {
            kind: f.kind,
            severity: f.severity,
            place: if f.lines.len() == f.pcs.len() && !f.lines.is_empty() {
                (true, f.lines.clone())
            } else {
                (false, f.pcs.clone())
            },
            same_warp: same_warp(f),
        };
        let addr = f.example.address;
        match keys.iter().position(|k| *k == key) {
            Some(g) => {
                let g = &mut groups[g];
                g.findings += 1;
                g.count += f.count;
                g.members.push(i);
                if let Some(a) = addr {
                    g.bytes = Some(g.bytes.map_or([a, a], |[lo, hi]| [lo.min(a), hi.max(a)]));
                }
            }
            None => {
                keys.push(key);
                groups.push(Group {
                    kind: f.kind,
                    severity: f.severity,
                    lines: f.lines.clone(),
                    file: f.pcs.last().and_then(|&pc| file_of(pc)),
                    same_warp: same_warp(f),
                    findings: 1,
                    count: f.count,
                    bytes: addr.map(|a| [a, a]),
                    example: f.example.clone(),
                    message: f.message.clone(),
                    members: vec![i],
                });
            }
        }
    }
    for g in &mut groups {
        g.message = demangle_quoted(&g.message);
        if let (Some([lo, hi]), Some(a)) = (g.bytes, g.example.address)
            && lo < hi
        {
            let from = format!("byte {a}");
            if g.message.contains(&from) {
                g.message = g.message.replacen(&from, &format!("bytes {lo}..{hi}"), 1);
            }
        }
    }
    groups
}

/// `text` with every `` `_Z...` `` name demangled (names that do not demangle stay as they are).
pub fn demangle_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        out.push('`');
        // Odd pieces (the 1st, 3rd, ... after a backquote) are inside quotes.
        let inside = i % 2 == 0;
        let shown = if inside && part.starts_with("_Z") {
            cpp_demangle::Symbol::new(part)
                .ok()
                .and_then(|s| {
                    s.demangle(&cpp_demangle::DemangleOptions::new().no_return_type())
                        .ok()
                })
                .unwrap_or_else(|| part.to_string())
        } else {
            part.to_string()
        };
        out.push_str(&shown);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race(pcs: [u32; 2], lines: [u32; 2], threads: [u32; 2], addr: u64) -> Finding {
        Finding {
            kind: FindingKind::Race,
            severity: Severity::Error,
            line: Some(lines[1]),
            lines: lines.to_vec(),
            pcs: pcs.to_vec(),
            message: format!("RAW race on shared byte {addr}: thread ..."),
            count: 2,
            example: Example {
                block: 0,
                threads: threads.to_vec(),
                address: Some(addr),
            },
        }
    }

    #[test]
    fn unrolled_copies_fold_into_one_row_per_line_pair_and_warp() {
        let fs = vec![
            race([10, 20], [5, 9], [0, 33], 132),
            race([10, 21], [5, 9], [0, 34], 136),
            race([10, 22], [5, 9], [0, 1], 4),
            race([10, 23], [5, 9], [0, 40], 160),
            race([11, 24], [6, 9], [0, 40], 160),
        ];
        let g = group(&fs, &|_| Some("k.cu".into()));
        assert_eq!(g.len(), 3, "{g:#?}");
        assert_eq!(g[0].findings, 3);
        assert_eq!(g[0].count, 6);
        assert_eq!(g[0].bytes, Some([132, 160]));
        assert_eq!(g[0].same_warp, Some(false));
        assert_eq!(g[0].members, vec![0, 1, 3]);
        assert!(
            g[0].message.starts_with("RAW race on shared bytes 132..160:"),
            "{}",
            g[0].message
        );
        assert_eq!(g[1].same_warp, Some(true));
        assert_eq!(g[1].message, fs[2].message, "one member: the message as it was");
        assert_eq!(g[2].lines, vec![6, 9]);
        assert_eq!(g[2].file.as_deref(), Some("k.cu"));
    }

    #[test]
    fn mangled_names_in_quotes_are_demangled() {
        assert_eq!(
            demangle_quoted("byte 128 of `_ZZ10racyReducePKiPiE9local_mem`, see `s`"),
            "byte 128 of `racyReduce(int const*, int*)::local_mem`, see `s`"
        );
        assert_eq!(demangle_quoted("no quotes"), "no quotes");
        assert_eq!(demangle_quoted("`_Znotmangled`"), "`_Znotmangled`");
    }

    #[test]
    fn without_lines_pcs_keep_findings_apart() {
        let mut a = race([1, 2], [0, 0], [0, 33], 0);
        let mut b = race([3, 4], [0, 0], [0, 33], 4);
        a.lines.clear();
        b.lines.clear();
        assert_eq!(group(&[a, b], &|_| None).len(), 2);
    }
}
