//! Arbitrary PTX run on a small arbitrary launch under tight limits: the emulator must return a
//! result (faults as data) or an error, never panic, hang or exhaust memory.
//!
//! Input layout: 4 bytes of launch description, then the PTX text.
//! byte 0: grid x (1..=2), byte 1: block x (1..=64), byte 2: block y (1..=2), byte 3: dynamic shared
//! memory in 64-byte units (0..=15). Every 8-byte parameter gets a 256-byte buffer of pseudo-random
//! bytes, every 4-byte parameter a u32 taken from the launch bytes; other sizes get a u32 (a
//! mismatch the emulator must report as an error).
#![no_main]

use libfuzzer_sys::fuzz_target;
use warpscope_emu::{Arg, Launch, Limits};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, body) = data.split_at(4);
    let text = String::from_utf8_lossy(body);
    let Ok(program) = warpscope_ptx::compile(&text) else {
        return;
    };
    let limits = Limits {
        max_warp_insts_per_block: 20_000,
        max_global_bytes: 1 << 20,
        max_shared_bytes: 48 * 1024,
        max_local_bytes_per_block: 1 << 20,
    };
    for k in &program.kernels {
        let args: Vec<Arg> = k
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| match p.size {
                8 => Arg::Buffer(
                    (0..256u32)
                        .map(|j| (j.wrapping_mul(31).wrapping_add(i as u32 * 7)) as u8)
                        .collect(),
                ),
                _ => Arg::U32(u32::from(head[i % 4]) * 4),
            })
            .collect();
        let mut launch = Launch::new(
            [1 + u32::from(head[0] & 1), 1, 1],
            [1 + u32::from(head[1] % 64), 1 + u32::from(head[2] & 1), 1],
            args,
        );
        launch.dyn_smem = u32::from(head[3] % 16) * 64;
        if let Ok(res) = warpscope_emu::run(&program, &k.name, &launch, &limits, |_| ()) {
            for f in &res.faults {
                let _ = f.to_string();
            }
        }
    }
});
