//! What the runtime recorded in a program's process, read back by `warpscope run` after the
//! program exits: the launch records (one JSON line each), the notices (launches cut by
//! `--budget`, reads of what they left incomplete, device memory never freed), and the findings
//! they make for a `--check` tool.

use std::collections::BTreeMap;
use std::path::Path;

use crate::analysis::Finding;
use crate::runtime::{LaunchRecord, Notice};

/// The launch records of `path`, and whether the last one was cut off as the program ended (a
/// program ended by a signal may have been writing it: a line without its newline, left out). A
/// missing file is no launch. A line that does not read is an error naming the file and line.
pub fn read_launches(path: &Path) -> Result<(Vec<LaunchRecord>, bool), String> {
    let mut text = std::fs::read_to_string(path).unwrap_or_default();
    let cut_off = !text.is_empty() && !text.ends_with('\n');
    if cut_off {
        text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
    }
    let mut recs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        recs.push(serde_json::from_str(line).map_err(|e| {
            format!(
                "{}: line {}: a launch record does not read: {e}",
                path.display(),
                i + 1
            )
        })?);
    }
    Ok((recs, cut_off))
}

/// The notices of `path` (a missing file or a line that does not read: none).
pub fn read_notices(path: &Path) -> Vec<Notice> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Whether the `--check` tool `tool` (`racecheck`, `memcheck`, `synccheck`, `initcheck`; anything
/// else: all) reports findings of `kind`.
pub fn tool_keeps(tool: &str, kind: &str) -> bool {
    // a failing device assert stops the kernel on a GPU too: every tool reports it
    if kind == "assert" {
        return true;
    }
    match tool {
        "racecheck" => kind.contains("race"),
        "memcheck" => {
            kind.contains("bounds")
                || kind.contains("misaligned")
                || kind == "fault"
                || kind == "leak"
                || kind == "api_error"
        }
        "synccheck" => kind.contains("barrier") || kind == "exit_before_remote_access",
        "initcheck" => kind.contains("uninit"),
        _ => true,
    }
}

/// The program's reads of memory a launch cut short left incomplete, per (launch, call): the
/// number of reads, their bytes and the first address.
pub fn incomplete_reads(notices: &[Notice]) -> BTreeMap<(u64, &str), (u64, u64, u64)> {
    let mut reads: BTreeMap<(u64, &str), (u64, u64, u64)> = BTreeMap::new();
    for n in notices {
        if let Notice::IncompleteRead {
            call,
            address,
            bytes,
            from_launch,
            ..
        } = n
        {
            let e = reads
                .entry((*from_launch, call.as_str()))
                .or_insert((0, 0, *address));
            e.0 += 1;
            e.1 += bytes;
        }
    }
    reads
}

/// Adds the reads of [`incomplete_reads`] to the findings of the launches they read from, one
/// finding per call.
pub fn add_read_findings(recs: &mut [LaunchRecord], reads: &BTreeMap<(u64, &str), (u64, u64, u64)>) {
    for ((from, call), (count, bytes, first)) in reads {
        if let Some(r) = recs.iter_mut().find(|r| r.index == *from) {
            r.analysis.findings.push(Finding {
                severity: "error".into(),
                kind: "incomplete_read".into(),
                line: None,
                message: format!(
                    "the program read memory this launch left incomplete (not all its blocks ran: --budget): {count} × {call}, {bytes} bytes, the first at {first:#x}"
                ),
            });
        }
    }
}

/// Device memory the program never freed, as findings of the program (memcheck's leak check) when
/// `tool` keeps them.
pub fn leak_findings(notices: &[Notice], tool: &str) -> Vec<Finding> {
    notices
        .iter()
        .filter_map(|n| match n {
            Notice::Leak { address, bytes, at } if tool_keeps(tool, "leak") => {
                // a warning: many programs end without freeing, and compute-sanitizer reports
                // leaks only when asked (`--leak-check full`)
                Some(Finding {
                    severity: "warning".into(),
                    kind: "leak".into(),
                    line: None,
                    message: format!(
                        "{bytes} bytes of device memory at {address:#x} were still allocated at {}: never freed (cudaFree)",
                        if at == "exit" { "the program's end" } else { at.as_str() }
                    ),
                })
            }
            _ => None,
        })
        .collect()
}

/// The findings of the program as a whole that `tool` keeps: device memory never freed
/// ([`leak_findings`]), CUDA runtime calls that returned an error (memcheck's "Program hit
/// cudaErrorX on CUDA API call to Y": one finding per call and error, with how many times), and
/// copies to the host of device bytes nothing wrote (initcheck's host-side kind).
pub fn program_findings(notices: &[Notice], tool: &str) -> Vec<Finding> {
    let mut out = leak_findings(notices, tool);
    let mut calls: BTreeMap<(&str, u32), u64> = BTreeMap::new();
    for n in notices {
        match n {
            Notice::ApiError { call, code } if tool_keeps(tool, "api_error") => {
                *calls.entry((call.as_str(), *code)).or_insert(0) += 1;
            }
            Notice::StreamRace { line, message } if tool_keeps(tool, "stream_race") => {
                out.push(Finding {
                    severity: "error".into(),
                    kind: "stream_race".into(),
                    line: *line,
                    message: message.clone(),
                });
            }
            Notice::StreamUnchecked { message } if tool_keeps(tool, "stream_race") => {
                out.push(Finding {
                    severity: "note".into(),
                    kind: "stream_unchecked".into(),
                    line: None,
                    message: message.clone(),
                });
            }
            Notice::UninitializedCopy {
                address,
                bytes,
                first,
                unwritten,
                segments,
            } if tool_keeps(tool, "uninitialized_copy") => out.push(Finding {
                severity: "error".into(),
                kind: "uninitialized_copy".into(),
                line: None,
                message: format!(
                    "a copy of {bytes} bytes from device memory at {address:#x} to the host reads {unwritten} bytes nothing wrote (the first at {first:#x}; {segments} 32-byte segment(s))"
                ),
            }),
            _ => {}
        }
    }
    for ((call, code), times) in calls {
        let (name, text) = crate::errors::ERRORS
            .iter()
            .find(|e| e.0 == code)
            .map_or(("an unknown error", "unknown"), |e| (e.1, e.2));
        let times = if times == 1 {
            String::new()
        } else {
            format!(" ({times} times)")
        };
        out.push(Finding {
            severity: "error".into(),
            kind: "api_error".into(),
            line: None,
            message: format!("{call} returned {name} ({code}: {text}){times}"),
        });
    }
    out
}

/// The launches cut by `--budget`: (launch, kernel, blocks run, blocks).
pub fn launches_cut(notices: &[Notice]) -> Vec<(u64, &str, u64, u64)> {
    notices
        .iter()
        .filter_map(|n| match n {
            Notice::LaunchCut {
                launch,
                label,
                blocks_run,
                blocks,
                ..
            } => Some((*launch, label.as_str(), *blocks_run, *blocks)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tool_keeps_its_kinds_and_every_tool_an_assert() {
        // the kinds the runtime's findings carry (analysis::hazards::FindingKind::name, faults)
        assert!(tool_keeps("racecheck", "race") && tool_keeps("racecheck", "global_race"));
        assert!(!tool_keeps("racecheck", "uninitialized_read"));
        assert!(tool_keeps("memcheck", "out_of_bounds") && tool_keeps("memcheck", "misaligned"));
        assert!(tool_keeps("memcheck", "leak") && tool_keeps("memcheck", "fault"));
        assert!(!tool_keeps("memcheck", "divergent_barrier") && !tool_keeps("memcheck", "race"));
        assert!(tool_keeps("synccheck", "divergent_barrier") && tool_keeps("synccheck", "redundant_barrier"));
        assert!(!tool_keeps("synccheck", "out_of_bounds"));
        assert!(tool_keeps("initcheck", "uninitialized_read") && !tool_keeps("initcheck", "race"));
        for t in ["racecheck", "memcheck", "synccheck", "initcheck", "all"] {
            assert!(tool_keeps(t, "assert"), "{t}");
        }
        assert!(tool_keeps("all", "race") && tool_keeps("all", "same_value_write"));
    }

    #[test]
    fn a_record_cut_off_is_left_out_and_a_bad_line_is_named() {
        let dir = std::env::temp_dir().join(format!("warpscope-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("launches.jsonl");
        std::fs::write(&p, "{\"index\": 0, \"kern").unwrap();
        let (recs, cut) = read_launches(&p).unwrap();
        assert!(recs.is_empty() && cut);
        std::fs::write(&p, "not json\n").unwrap();
        let e = read_launches(&p).unwrap_err();
        assert!(
            e.contains("launches.jsonl: line 1: a launch record does not read"),
            "{e}"
        );
        assert_eq!(read_launches(&dir.join("none")).unwrap(), (vec![], false));
        assert!(read_notices(&dir.join("none")).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failed_calls_are_memcheck_findings_and_unwritten_copies_initcheck_ones() {
        let api = |call: &str, code| Notice::ApiError {
            call: call.into(),
            code,
        };
        let notices = vec![
            api("cudaFree", 1),
            api("cudaFree", 1),
            api("cudaDeviceSynchronize", 719),
            Notice::UninitializedCopy {
                address: 0x1000,
                bytes: 128,
                first: 0x1040,
                unwritten: 64,
                segments: 2,
            },
        ];
        let all = program_findings(&notices, "all");
        let kinds: Vec<&str> = all.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, ["uninitialized_copy", "api_error", "api_error"]);
        assert!(all.iter().all(|f| f.severity == "error"));
        assert_eq!(
            all[1].message,
            "cudaDeviceSynchronize returned cudaErrorLaunchFailure (719: unspecified launch failure)"
        );
        assert_eq!(
            all[2].message,
            "cudaFree returned cudaErrorInvalidValue (1: invalid argument) (2 times)"
        );
        assert!(
            all[0]
                .message
                .contains("reads 64 bytes nothing wrote (the first at 0x1040; 2 32-byte segment(s))")
        );
        let mem: Vec<String> = program_findings(&notices, "memcheck")
            .into_iter()
            .map(|f| f.kind)
            .collect();
        assert_eq!(mem, ["api_error", "api_error"]);
        let init: Vec<String> = program_findings(&notices, "initcheck")
            .into_iter()
            .map(|f| f.kind)
            .collect();
        assert_eq!(init, ["uninitialized_copy"]);
        assert!(program_findings(&notices, "racecheck").is_empty());
    }
}
