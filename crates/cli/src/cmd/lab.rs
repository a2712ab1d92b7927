//! `warpscope lab` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope lab`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope lab`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope lab` is not available in this build yet")
}
