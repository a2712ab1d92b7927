//! `warpscope tour` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope tour`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope tour`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope tour` is not available in this build yet")
}
