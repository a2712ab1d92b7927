//! `warpscope check` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope check`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope check`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope check` is not available in this build yet")
}
