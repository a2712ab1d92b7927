//! `warpscope analyze` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope analyze`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope analyze`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope analyze` is not available in this build yet")
}
