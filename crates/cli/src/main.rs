//! `warpscope`: the command-line front end. Only flag definitions, glue and output live here; the work
//! is done by the library crates (see ARCHITECTURE.md).
//!
//! Exit status: 0 success; 1 a finding that fails the run (`check` errors) or no GPU / tool where one is
//! required; 2 bad input (usage, unreadable or malformed files, unknown architecture, ...). `run`
//! exits with its program's status as a shell reports it (128 + the signal that ended it). Output
//! cut short by its reader (`| head`) ends quietly with status 0.

mod addr_expr;
mod bank_trace;
mod child;
mod cmd;
mod exit;
mod findings;
mod launch;
mod limits;
mod measure;
mod occupancy_out;
mod output;
mod progress;
mod render;
mod report_page;
mod run_build;
mod run_export;
mod run_html;
mod run_html_kernel;
mod run_layout;
mod run_measure;
mod run_notes;
mod runtime_lib;
mod tour_seeds;
mod tour_tensor;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// See how CUDA warps use shared memory, branches, barriers and occupancy: predict without a GPU,
/// explain, fix, and measure on a GPU.
#[derive(Parser)]
#[command(name = "warpscope", version, about, long_about = None)]
struct Cli {
    /// Details in messages: where a missing tool or library was looked for, and why each
    /// fallback was not taken.
    #[arg(long, short = 'v', global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a whole CUDA program (built with `nvcc -cudart shared`) on the emulator: every kernel
    /// launch's counters as Nsight Compute would report them, no GPU needed.
    Run(cmd::run::Args),
    /// Shared-memory bank model for one warp request (or a trace of requests).
    Bank(cmd::bank::Args),
    /// Occupancy calculator: blocks per SM, occupancy and the limiting factors.
    Occupancy(cmd::occupancy::Args),
    /// Device query of every visible GPU (needs a CUDA driver).
    Device(cmd::device::Args),
    /// Latency hiding by Little's law: warps and bytes in flight needed per SM and per device.
    Latency(cmd::latency::Args),
    /// Global thread-ID formulas for grid and block shapes, and a uniqueness check.
    Index(cmd::index::Args),
    /// Emulate a kernel on the CPU and report shared-memory wavefronts per line and instruction.
    Analyze(cmd::analyze::Args),
    /// Suggest padding or XOR swizzles that remove shared-memory bank conflicts, proven on the launch.
    Fix(cmd::fix::Args),
    /// Find races, divergent and redundant barriers, uninitialised and out-of-bounds accesses.
    Check(cmd::check::Args),
    /// Run the seed experiments' kernels (bundled) and print what they show, with no GPU.
    Tour(cmd::tour::Args),
    /// Run experiments on a real GPU, predictions beside measurements.
    Lab(cmd::lab::Args),
    /// Run the calibration batteries on this GPU and report whether the model holds (needs a GPU and ncu).
    Calibrate(cmd::calibrate::Args),
    /// Write a self-contained HTML report (source view, bank heatmaps, occupancy, lab charts).
    Report(cmd::report::Args),
    /// Install the CUDA compiler wheels into the user cache (and build the runtime of a `cargo
    /// install`ed warpscope), so that `run app.cu` and `analyze K.cu` work from any folder.
    Setup(cmd::setup::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    if cli.verbose {
        // SAFETY: nothing else runs yet (no thread is started before this point); the variable
        // reaches the libraries' messages and the programs `run` starts.
        unsafe { std::env::set_var("WARPSCOPE_VERBOSE", "1") };
    }
    let result = match cli.command {
        Command::Run(args) => cmd::run::run(args),
        Command::Bank(args) => cmd::bank::run(args),
        Command::Occupancy(args) => cmd::occupancy::run(args),
        Command::Device(args) => cmd::device::run(args),
        Command::Latency(args) => cmd::latency::run(args),
        Command::Index(args) => cmd::index::run(args),
        Command::Analyze(args) => cmd::analyze::run(args),
        Command::Fix(args) => cmd::fix::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Tour(args) => cmd::tour::run(args),
        Command::Lab(args) => cmd::lab::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Calibrate(args) => cmd::calibrate::run(args),
        Command::Setup(args) => cmd::setup::run(args),
    };
    exit::finish(result)
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the flags (names and shorts unique across the global `--verbose` and
    /// every command's), which it runs only in debug builds by itself.
    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
