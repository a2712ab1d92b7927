//! `warpscope device` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope device`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope device`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope device` is not available in this build yet")
}
