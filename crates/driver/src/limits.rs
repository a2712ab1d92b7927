//! Limits checked before any expensive work, so that a hostile input (a huge file, a huge buffer
//! spec, a huge grid) ends in a clear error instead of a hang or an out-of-memory kill. The emulator
//! enforces its own limits during a run (`warpscope_emu::Limits`).
//!
//! | what | limit |
//! |---|---|
//! | a `.ptx`, `.cu`, binary or machine-code (`--sass`) input | [`MAX_SOURCE_BYTES`] (binaries [`MAX_BINARY_BYTES`]) |
//! | one `buf:BYTES` / `buf:@FILE` argument, all of them | [`MAX_BUFFER_BYTES`], [`MAX_TOTAL_BUFFER_BYTES`] |
//! | threads emulated (blocks run × threads per block) | [`MAX_GRID_THREADS`] |
//! | warp instructions of one request, all blocks together | [`MAX_REQUEST_WARP_INSTS`] |

use std::io::Read;
use std::path::Path;

use warpscope_emu::{Launch, Limits};

use crate::error::{Error, Result};

/// Largest `.ptx` / `.cu` / machine-code input read (32 MiB; nvcc's `-G` PTX of a large kernel is a
/// few MB).
pub const MAX_SOURCE_BYTES: u64 = 32 << 20;
/// Largest binary input (`.cubin`, fatbinary, executable) handed to cuobjdump (1 GiB).
pub const MAX_BINARY_BYTES: u64 = 1 << 30;
/// Largest single buffer argument (256 MiB).
pub const MAX_BUFFER_BYTES: u64 = 256 << 20;
/// Largest sum of the buffer arguments of one launch (1 GiB).
pub const MAX_TOTAL_BUFFER_BYTES: u64 = 1 << 30;
/// Most threads one emulated launch may have (2^26, for example 262,144 blocks of 256 threads).
pub const MAX_GRID_THREADS: u64 = 1 << 26;
/// Warp instructions one request may execute over all its blocks (2^34); the per-block limit of a
/// run is lowered so that the blocks together stay under it.
pub const MAX_REQUEST_WARP_INSTS: u64 = 1 << 34;

/// `N MiB` (or `N bytes` below one MiB).
pub fn mib(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Reads a text input (`.ptx`, `.cu`, `--sass`) of at most [`MAX_SOURCE_BYTES`]; an error names the
/// file and the limit. Never reads more than the limit plus one byte, whatever the file is.
pub fn read_source(path: &Path) -> Result<String> {
    let bytes = read_capped(path, MAX_SOURCE_BYTES, "a PTX / CUDA / machine-code input")?;
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads at most `limit` bytes of `path` (`what` names the input in the error).
pub fn read_capped(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let f = std::fs::File::open(path)
        .map_err(|e| Error::input(format!("cannot read {}: {e}", path.display())))?;
    if let Ok(meta) = f.metadata()
        && meta.is_file()
        && meta.len() > limit
    {
        return Err(Error::input(format!(
            "{}: {} bytes, over the {} limit for {what}",
            path.display(),
            meta.len(),
            mib(limit)
        )));
    }
    // Pipes and devices have no length: read at most one byte past the limit.
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(format!("cannot read {}: {e}", path.display())))?;
    if bytes.len() as u64 > limit {
        return Err(Error::input(format!(
            "{}: over the {} limit for {what}",
            path.display(),
            mib(limit)
        )));
    }
    Ok(bytes)
}

/// Checks `--arg` specs before they are turned into buffers: each `buf:BYTES` or `buf:@FILE` at most
/// [`MAX_BUFFER_BYTES`], all together at most [`MAX_TOTAL_BUFFER_BYTES`]. Specs this does not
/// recognise are left to the argument parser, which reports them.
pub fn check_arg_specs<S: AsRef<str>>(specs: &[S]) -> Result<()> {
    let mut total = 0u64;
    for (i, spec) in specs.iter().enumerate() {
        let spec = spec.as_ref();
        let Some(value) = spec.strip_prefix("buf:") else {
            continue;
        };
        let bytes = if let Some(path) = value.strip_prefix('@') {
            match std::fs::metadata(path) {
                Ok(m) if m.is_file() => m.len(),
                Ok(_) => {
                    return Err(Error::input(format!(
                        "--arg {spec} (argument {i}): {path} is not a regular file"
                    )));
                }
                Err(_) => continue,
            }
        } else {
            let size = value.split(':').next().unwrap_or("").trim();
            let parsed = match size.strip_prefix("0x") {
                Some(h) => u128::from_str_radix(h, 16),
                None => size.parse::<u128>(),
            };
            match parsed {
                Ok(n) => u64::try_from(n).unwrap_or(u64::MAX),
                Err(_) => continue,
            }
        };
        if bytes > MAX_BUFFER_BYTES {
            return Err(Error::input(format!(
                "--arg {spec} (argument {i}): {bytes} bytes, over the {} limit for one buffer",
                mib(MAX_BUFFER_BYTES)
            )));
        }
        total += bytes;
        if total > MAX_TOTAL_BUFFER_BYTES {
            return Err(Error::input(format!(
                "--arg: buffers of {total} bytes in all, over the {} limit for one launch",
                mib(MAX_TOTAL_BUFFER_BYTES)
            )));
        }
    }
    Ok(())
}

/// Checks the grid's size: blocks × threads per block at most [`MAX_GRID_THREADS`] (`blocks_run`
/// is the number of blocks actually emulated when sampling, else the whole grid).
pub fn check_grid(grid: [u32; 3], block: [u32; 3], blocks_run: Option<u64>) -> Result<()> {
    let blocks: u64 = grid.iter().map(|&x| u64::from(x)).product();
    let threads: u64 = block.iter().map(|&x| u64::from(x)).product();
    let run = blocks_run.unwrap_or(blocks).min(blocks);
    let total = run.saturating_mul(threads);
    if total > MAX_GRID_THREADS {
        return Err(Error::input(format!(
            "grid {grid:?} of blocks {block:?}: {total} threads to emulate, over the limit of {MAX_GRID_THREADS} \
             (emulate fewer blocks with --blocks N, or shrink the grid)"
        )));
    }
    Ok(())
}

/// The emulator's limits for `launch`: the defaults, with `per_block` warp instructions per block
/// lowered by [`per_block_insts`] for the blocks the launch runs.
pub fn emu_limits(launch: &Launch, per_block: u64) -> Limits {
    let blocks = match &launch.blocks {
        Some(b) => b.len() as u64,
        None => launch.grid.iter().map(|&x| u64::from(x)).product(),
    };
    Limits {
        max_warp_insts_per_block: per_block_insts(per_block, blocks),
        ..Limits::default()
    }
}

/// The per-block instruction limit for a run of `blocks_run` blocks: the asked-for one, lowered so
/// that all blocks together stay within [`MAX_REQUEST_WARP_INSTS`] (never below 1).
pub fn per_block_insts(asked: u64, blocks_run: u64) -> u64 {
    asked.min(MAX_REQUEST_WARP_INSTS / blocks_run.max(1)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_specs() {
        assert!(check_arg_specs(&["buf:4096", "u32:7", "buf:16:zero"]).is_ok());
        let e = check_arg_specs(&["u32:1", "buf:4294967296"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("argument 1") && e.contains("256 MiB"), "{e}");
        let e = check_arg_specs(&["buf:0x20000000:zero"]).unwrap_err().to_string();
        assert!(e.contains("over the 256 MiB limit"), "{e}");
        let e = check_arg_specs(&["buf:268435456"; 5]).unwrap_err().to_string();
        assert!(e.contains("1024 MiB"), "{e}");
        let e = check_arg_specs(&["buf:999999999999999999999999999999"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("over the"), "{e}");
        // Not a number: left to the argument parser.
        assert!(check_arg_specs(&["buf:lots"]).is_ok());
        // An endless device is refused before anything reads it.
        let e = check_arg_specs(&["buf:@/dev/zero"]).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
    }

    #[test]
    fn grid_and_work() {
        assert!(check_grid([65536, 1, 1], [1024, 1, 1], None).is_ok());
        let e = check_grid([65536, 65535, 1], [1024, 1, 1], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("over the limit") && e.contains("--blocks"), "{e}");
        assert!(check_grid([65536, 65535, 1], [1024, 1, 1], Some(8)).is_ok());
        assert_eq!(per_block_insts(1 << 28, 1), 1 << 28);
        assert_eq!(per_block_insts(1 << 28, 1 << 20), 1 << 14);
        assert_eq!(per_block_insts(5, 0), 5);
        assert_eq!(per_block_insts(1 << 28, u64::MAX), 1);
    }
}
