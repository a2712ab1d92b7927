//! warpscope-analysis: analyses of an emulated launch. Each is a sink of the emulator's events
//! ([`warpscope_emu::Sink`], one per block, merged in block order) and never steers execution.
//!
//! * [`banks`]: every shared access through the bank model (`warpscope_model::bank`), aggregated per
//!   instruction, per source line and per launch (wavefronts, ideal wavefronts, the worst request's bank
//!   picture), loads and stores apart, as Nsight Compute counts them.
//! * [`bank_trace`]: a JSON Lines trace of warp requests through the bank model (`bank --trace`),
//!   read and written through the caller's reader and writer.
//! * [`reconcile`]: maps PTX shared accesses to the machine code's, so accesses that ptxas fused into
//!   one wider instruction count once, with the wider width.
//! * [`global`]: global-memory requests and 32-byte sectors per warp-level access.
//! * [`launchspec`]: the launch language (`X,Y,Z` dimensions, `--arg` specs such as `buf:4096`).
//! * [`divergence`], [`hazards`]: branch divergence counters; races, barrier misuse, uninitialised and
//!   out-of-bounds shared accesses.
//!
//! Invariant: analyses only read events and the program; the one piece of I/O is [`launchspec`]
//! reading a `buf:@FILE` argument.
#![deny(missing_docs)]

pub mod async_proxy;
pub mod cluster_races;
pub mod device_grids;
pub mod divergence;
pub mod float_order;
pub mod footprint;
pub mod global;
pub mod global_init;
pub mod global_races;
pub mod hazards;
pub mod launchspec;
pub mod machine_flow;
pub mod named_barriers;
mod ptx_text;
pub mod warp_sync;
pub mod wgmma_hazards;

pub mod bank_trace;
pub mod banks;
pub mod fix;
pub mod reconcile;
pub mod side;
pub mod sync_ops;
