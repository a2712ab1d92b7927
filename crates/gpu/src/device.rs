//! Device query: the properties of every GPU, read with `cuDeviceGetAttribute`.

use cudarc::driver::sys::{self, CUdevice_attribute as A};
use serde::Serialize;

use crate::error::DriverCtx;
use crate::{Error, Result, ensure_driver};

/// Everything `warpscope device` shows for one GPU.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DeviceInfo {
    /// Device ordinal.
    pub ordinal: usize,
    /// Marketing name.
    pub name: String,
    /// Compute capability, major.
    pub cc_major: u32,
    /// Compute capability, minor.
    pub cc_minor: u32,
    /// Streaming multiprocessors.
    pub multiprocessors: u32,
    /// Threads per warp.
    pub warp_size: u32,
    /// Maximum threads per block.
    pub max_threads_per_block: u32,
    /// Maximum threads per SM.
    pub max_threads_per_sm: u32,
    /// Maximum resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// Maximum block dimensions (x, y, z).
    pub max_block_dim: [u32; 3],
    /// Maximum grid dimensions (x, y, z).
    pub max_grid_dim: [u32; 3],
    /// Static shared memory per block, bytes (48 KiB).
    pub shared_mem_per_block: u32,
    /// Shared memory per block with opt-in, bytes.
    pub shared_mem_per_block_optin: u32,
    /// Shared memory per SM, bytes.
    pub shared_mem_per_sm: u32,
    /// Shared memory the system reserves per block, bytes.
    pub reserved_shared_mem_per_block: u32,
    /// 32-bit registers per block.
    pub registers_per_block: u32,
    /// 32-bit registers per SM.
    pub registers_per_sm: u32,
    /// Constant memory, bytes.
    pub total_constant_memory: u32,
    /// SM clock, kHz (as reported; 0 where the driver no longer reports it).
    pub clock_khz: u32,
    /// Memory clock, kHz.
    pub memory_clock_khz: u32,
    /// Memory bus width, bits.
    pub memory_bus_width_bits: u32,
    /// Peak DRAM bandwidth estimate, GB/s: 2 (double data rate) x memory clock x bus width / 8.
    pub peak_bandwidth_gbs: f64,
    /// L2 cache, bytes.
    pub l2_cache_bytes: u32,
    /// Copy engines that can run beside kernels.
    pub async_engine_count: u32,
    /// Can map host memory into the device address space (zero-copy).
    pub can_map_host_memory: bool,
    /// Unified virtual addressing.
    pub unified_addressing: bool,
    /// Kernels of different streams may run concurrently.
    pub concurrent_kernels: bool,
    /// ECC on.
    pub ecc_enabled: bool,
    /// Managed memory supported.
    pub managed_memory: bool,
    /// Integrated (shares memory with the host).
    pub integrated: bool,
    /// PCI bus id, `domain:bus:device`.
    pub pci_bus_id: String,
    /// Total device memory, bytes.
    pub total_memory_bytes: u64,
    /// Driver version as `major.minor` (e.g. 13.0).
    pub driver_version: String,
}

/// The per-SM and per-block limits an occupancy calculation needs.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Compute capability as `major * 10 + minor`.
    pub cc: u32,
    /// SMs.
    pub multiprocessors: u32,
    /// Threads per warp.
    pub warp_size: u32,
    /// Maximum threads per block.
    pub max_threads_per_block: u32,
    /// Maximum threads per SM.
    pub max_threads_per_sm: u32,
    /// Maximum resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// Registers per SM.
    pub registers_per_sm: u32,
    /// Registers per block.
    pub registers_per_block: u32,
    /// Shared memory per SM, bytes.
    pub shared_mem_per_sm: u32,
    /// Shared memory per block with opt-in, bytes.
    pub shared_mem_per_block_optin: u32,
    /// Shared memory reserved by the system per block, bytes.
    pub reserved_shared_mem_per_block: u32,
}

impl DeviceInfo {
    /// The limits part.
    pub fn limits(&self) -> DeviceLimits {
        DeviceLimits {
            cc: self.cc_major * 10 + self.cc_minor,
            multiprocessors: self.multiprocessors,
            warp_size: self.warp_size,
            max_threads_per_block: self.max_threads_per_block,
            max_threads_per_sm: self.max_threads_per_sm,
            max_blocks_per_sm: self.max_blocks_per_sm,
            registers_per_sm: self.registers_per_sm,
            registers_per_block: self.registers_per_block,
            shared_mem_per_sm: self.shared_mem_per_sm,
            shared_mem_per_block_optin: self.shared_mem_per_block_optin,
            reserved_shared_mem_per_block: self.reserved_shared_mem_per_block,
        }
    }
}

/// Peak DRAM bandwidth in GB/s from the memory clock (kHz) and bus width (bits), double data rate.
pub fn peak_bandwidth_gbs(memory_clock_khz: u32, bus_width_bits: u32) -> f64 {
    2.0 * f64::from(memory_clock_khz) * 1e3 * f64::from(bus_width_bits) / 8.0 / 1e9
}

/// Formats a driver version number (`13000` → `13.0`).
pub fn format_driver_version(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

/// Number of GPUs (typed errors when there is no driver or no device).
pub fn device_count() -> Result<usize> {
    ensure_driver()
}

/// Queries one device.
pub fn query(ordinal: usize) -> Result<DeviceInfo> {
    let count = ensure_driver()?;
    if ordinal >= count {
        return Err(Error::BadOrdinal { ordinal, count });
    }
    let mut dev: sys::CUdevice = 0;
    // SAFETY: the driver is present and initialised (ensure_driver called cuInit); `dev` is a valid
    // out-pointer.
    unsafe { sys::cuDeviceGet(&mut dev, ordinal as i32) }
        .result()
        .ctx("cuDeviceGet")?;
    let attr = |a: A| -> Result<u32> {
        let mut v = 0i32;
        // SAFETY: `dev` is a valid device handle; `v` a valid out-pointer.
        unsafe { sys::cuDeviceGetAttribute(&mut v, a, dev) }
            .result()
            .ctx(&format!("cuDeviceGetAttribute({a:?})"))?;
        Ok(v.max(0) as u32)
    };
    let mut name_buf = [0 as std::ffi::c_char; 256];
    // SAFETY: the buffer holds 256 bytes, as passed.
    unsafe { sys::cuDeviceGetName(name_buf.as_mut_ptr(), 256, dev) }
        .result()
        .ctx("cuDeviceGetName")?;
    let name_bytes: Vec<u8> = name_buf
        .iter()
        .map(|&c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    let mut total: usize = 0;
    // SAFETY: valid device and out-pointer.
    unsafe { sys::cuDeviceTotalMem_v2(&mut total, dev) }
        .result()
        .ctx("cuDeviceTotalMem")?;
    let mut drv = 0i32;
    // SAFETY: valid out-pointer.
    unsafe { sys::cuDriverGetVersion(&mut drv) }
        .result()
        .ctx("cuDriverGetVersion")?;
    let mem_clock = attr(A::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)?;
    let bus = attr(A::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)?;
    Ok(DeviceInfo {
        ordinal,
        name: String::from_utf8_lossy(&name_bytes).into_owned(),
        cc_major: attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        cc_minor: attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        multiprocessors: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        warp_size: attr(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
        max_threads_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_threads_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
        max_blocks_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)?,
        max_block_dim: [
            attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
            attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
            attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
        ],
        max_grid_dim: [
            attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
            attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
        ],
        shared_mem_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        shared_mem_per_block_optin: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
        shared_mem_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
        reserved_shared_mem_per_block: attr(A::CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)?,
        registers_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
        registers_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?,
        total_constant_memory: attr(A::CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY)?,
        clock_khz: attr(A::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)?,
        memory_clock_khz: mem_clock,
        memory_bus_width_bits: bus,
        peak_bandwidth_gbs: peak_bandwidth_gbs(mem_clock, bus),
        l2_cache_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        async_engine_count: attr(A::CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT)?,
        can_map_host_memory: attr(A::CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)? != 0,
        unified_addressing: attr(A::CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)? != 0,
        concurrent_kernels: attr(A::CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS)? != 0,
        ecc_enabled: attr(A::CU_DEVICE_ATTRIBUTE_ECC_ENABLED)? != 0,
        managed_memory: attr(A::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)? != 0,
        integrated: attr(A::CU_DEVICE_ATTRIBUTE_INTEGRATED)? != 0,
        pci_bus_id: format!(
            "{:04x}:{:02x}:{:02x}",
            attr(A::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
            attr(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
            attr(A::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?
        ),
        total_memory_bytes: total as u64,
        driver_version: format_driver_version(drv),
    })
}

/// Queries every device.
pub fn query_all() -> Result<Vec<DeviceInfo>> {
    let n = ensure_driver()?;
    (0..n).map(query).collect()
}

/// The occupancy limits of device `ordinal` (for `warpscope occupancy --device N`).
pub fn device_limits(ordinal: usize) -> Result<DeviceLimits> {
    Ok(query(ordinal)?.limits())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h100_peak_bandwidth_from_clock_and_bus() {
        // H100 80GB HBM3 SXM: memory clock 2619 MHz, 5120-bit bus -> 3352.3 GB/s.
        let gbs = peak_bandwidth_gbs(2_619_000, 5120);
        assert!((gbs - 3352.32).abs() < 0.01, "{gbs}");
    }

    #[test]
    fn driver_version_format() {
        assert_eq!(format_driver_version(13000), "13.0");
        assert_eq!(format_driver_version(12080), "12.8");
    }

    #[test]
    fn no_driver_is_a_typed_unavailable_error_here() {
        // This machine (and CI) has no libcuda; with one present, a device count comes back instead.
        match device_count() {
            Err(e) => assert!(e.is_unavailable(), "{e}"),
            Ok(n) => assert!(n > 0),
        }
    }
}
