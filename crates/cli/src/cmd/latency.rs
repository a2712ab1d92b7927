//! `warpscope latency` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope latency`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope latency`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope latency` is not available in this build yet")
}
