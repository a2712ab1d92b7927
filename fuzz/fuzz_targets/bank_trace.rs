//! Lines of a `warpscope bank --trace` JSON Lines file: the per-line reader
//! (`warpscope_analysis::bank_trace::trace_one`) must return counts or an error for the line, never panic.
#![no_main]
#![allow(dead_code, unused_imports)]

include!(concat!(env!("OUT_DIR"), "/cli_main.rs"));

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut cached = None;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if let Err(e) = warpscope_analysis::bank_trace::trace_one(line, warpscope_model::bank::Config::default(), &mut cached) {
            let _ = format!("{e:#}");
        }
    }
});
