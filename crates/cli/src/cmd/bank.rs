//! `warpscope bank` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope bank`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope bank`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope bank` is not available in this build yet")
}
