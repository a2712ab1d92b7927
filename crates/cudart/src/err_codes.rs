//! Error codes (`cudaError_t`) the runtime returns.
#![allow(missing_docs)]

pub const SUCCESS: u32 = 0;
pub const INVALID_VALUE: u32 = 1;
pub const MEMORY_ALLOCATION: u32 = 2;
pub const INVALID_CONFIGURATION: u32 = 9;
pub const INVALID_SYMBOL: u32 = 13;
pub const INVALID_DEVICE_POINTER: u32 = 17;
pub const INVALID_MEMCPY_DIRECTION: u32 = 21;
pub const INVALID_DEVICE_FUNCTION: u32 = 98;
pub const INVALID_DEVICE: u32 = 101;
pub const UNSUPPORTED_LIMIT: u32 = 215;
pub const INVALID_PTX: u32 = 218;
pub const INVALID_RESOURCE_HANDLE: u32 = 400;
pub const ILLEGAL_STATE: u32 = 401;
pub const NOT_READY: u32 = 600;
pub const ILLEGAL_ADDRESS: u32 = 700;
pub const LAUNCH_OUT_OF_RESOURCES: u32 = 701;
pub const LAUNCH_TIMEOUT: u32 = 702;
pub const ASSERT: u32 = 710;
pub const HOST_MEMORY_ALREADY_REGISTERED: u32 = 712;
pub const HOST_MEMORY_NOT_REGISTERED: u32 = 713;
pub const MISALIGNED_ADDRESS: u32 = 716;
pub const INVALID_PC: u32 = 718;
pub const LAUNCH_FAILURE: u32 = 719;
pub const COOPERATIVE_LAUNCH_TOO_LARGE: u32 = 720;
pub const INVALID_CLUSTER_SIZE: u32 = 912;
pub const NOT_SUPPORTED: u32 = 801;
pub const STREAM_CAPTURE_UNSUPPORTED: u32 = 900;
pub const STREAM_CAPTURE_UNMATCHED: u32 = 903;
