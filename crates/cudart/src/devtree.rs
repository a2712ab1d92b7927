//! The records of grids launched by kernels (dynamic parallelism) that the runtime's launch code
//! keeps: where a grid came from, and what a grid that ran hands back (`devlaunch` runs them).

use serde::{Deserialize, Serialize};
use warpscope_emu::devlaunch::DeviceLaunch;

/// Where a device-launched grid came from (a record's `parent`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParentRecord {
    /// The launching grid's launch number.
    pub launch: u64,
    /// The launching block (`blockIdx`).
    pub block: [u32; 3],
    /// The launching thread (`threadIdx`).
    pub thread: [u32; 3],
    /// This grid's nesting depth (1: launched by a grid the host launched).
    pub depth: u32,
    /// The stream it was launched into: `null`, `created`, `fire_and_forget` or `tail`.
    pub stream: String,
}

/// A device-side launch being run.
pub(crate) struct Parent {
    pub record: ParentRecord,
    /// The time of its first `printf` (`Runtime::launch` in `devlaunch`).
    pub printf_time: u64,
}

/// A grid that ran to its end, with the kernels it launched.
pub(crate) struct GridDone {
    pub index: u64,
    pub printf_time: u64,
    pub module: usize,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub launches: Vec<DeviceLaunch>,
}
