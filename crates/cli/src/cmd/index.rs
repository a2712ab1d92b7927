//! `warpscope index` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope index`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope index`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope index` is not available in this build yet")
}
