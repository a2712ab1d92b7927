//! Command-line parsing on arbitrary argv: `Cli::try_parse_from` (the CLI's own `Cli`, every
//! subcommand and value parser; see build.rs) must return flags or a clap error, never panic.
//!
//! Input: argv words separated by NUL bytes (the program name is added).
#![no_main]
#![allow(dead_code, unused_imports)]

include!(concat!(env!("OUT_DIR"), "/cli_main.rs"));

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let argv = std::iter::once("warpscope").chain(text.split('\0'));
    if let Err(e) = <Cli as clap::Parser>::try_parse_from(argv) {
        // Rendering the error (usage, suggestions) must not panic either.
        let _ = e.render().to_string();
    }
});
