//! The PTX parser on arbitrary text: it must return (module, diagnostics), never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (_module, diags) = warpscope_ptx::parse(&text);
    for d in &diags {
        // Rendering a diagnostic must not panic either (it slices the offending text).
        let _ = d.to_string();
    }
});
