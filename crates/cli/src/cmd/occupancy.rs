//! `warpscope occupancy` (not written yet).

use std::process::ExitCode;

/// Flags of `warpscope occupancy`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `warpscope occupancy`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`warpscope occupancy` is not available in this build yet")
}
