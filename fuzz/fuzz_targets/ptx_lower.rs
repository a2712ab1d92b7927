//! Parse then lower arbitrary PTX: lowering must return a program or errors, never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (module, diags) = warpscope_ptx::parse(&text);
    if !diags.is_empty() {
        return;
    }
    match warpscope_ptx::lower(&module) {
        Ok(program) => {
            for k in &program.kernels {
                assert!(
                    k.entry <= k.end,
                    "kernel {} entry {} > end {}",
                    k.name,
                    k.entry,
                    k.end
                );
                assert!(
                    k.end as usize <= program.ops.len(),
                    "kernel {} ends past the program",
                    k.name
                );
            }
        }
        Err(errs) => {
            for e in &errs {
                let _ = e.to_string();
            }
        }
    }
});
