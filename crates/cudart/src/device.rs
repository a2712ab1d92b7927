//! What the emulated device says about itself: `cudaDeviceProp` (CUDA 13's layout) and
//! `cudaDeviceGetAttribute`, for an architecture preset. sm_90 answers with the H100's device query
//! as recorded in `calibration/device/warpscope_device_h100.json`; other presets take their limits
//! from the occupancy calculator and keep the H100's memory figures.

use warpscope_model::arch::Arch;

/// The device's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceInfo {
    /// Name.
    pub name: String,
    /// Compute capability.
    pub major: i32,
    /// Compute capability.
    pub minor: i32,
    /// SMs.
    pub sms: i32,
    /// Threads per SM.
    pub threads_per_sm: i32,
    /// Blocks per SM.
    pub blocks_per_sm: i32,
    /// Registers per SM (and per block).
    pub regs_per_sm: i32,
    /// Shared memory per SM, bytes.
    pub smem_per_sm: usize,
    /// Shared memory per block without opt-in, bytes.
    pub smem_per_block: usize,
    /// Shared memory per block with opt-in, bytes.
    pub smem_per_block_optin: usize,
    /// Global memory, bytes.
    pub total_mem: usize,
    /// L2, bytes.
    pub l2_bytes: i32,
    /// Memory bus width, bits.
    pub bus_width: i32,
    /// SM clock, kHz (`cudaDevAttrClockRate`).
    pub clock_khz: i32,
    /// Memory clock, kHz (`cudaDevAttrMemoryClockRate`).
    pub memory_clock_khz: i32,
}

/// `cudaDevAttrMaxAccessPolicyWindowSize` (bytes), as the H100's driver reports it (128 MiB;
/// measured 2026-11-26, driver 580.159.04).
pub const ACCESS_POLICY_MAX_WINDOW: i32 = 134_217_728;

/// Texture and surface limits (`cudaDevAttrMaxTexture1DWidth`, 21, ... `cudaDevAttrMaxTexture1DMipmappedWidth`,
/// 77) as the H100's driver reports them (`calibration/device/ncu_raw_h100.tsv`,
/// `device__attribute_maximum_texture*`/`_surface*`); other presets assumed alike.
const TEXTURE_LIMITS: &[(i32, i32)] = &[
    (21, 131_072),     // 1D width
    (22, 131_072),     // 2D width
    (23, 65_536),      // 2D height
    (24, 16_384),      // 3D width
    (25, 16_384),      // 3D height
    (26, 16_384),      // 3D depth
    (27, 32_768),      // 2D layered width
    (28, 32_768),      // 2D layered height
    (29, 2_048),       // 2D layered layers
    (42, 32_768),      // 1D layered width
    (43, 2_048),       // 1D layered layers
    (45, 32_768),      // 2D gather width
    (46, 32_768),      // 2D gather height
    (47, 8_192),       // 3D width, alternate
    (48, 8_192),       // 3D height, alternate
    (49, 32_768),      // 3D depth, alternate
    (52, 32_768),      // cubemap width
    (53, 32_768),      // cubemap layered width
    (54, 2_046),       // cubemap layered layers
    (55, 32_768),      // surface 1D width
    (56, 131_072),     // surface 2D width
    (57, 65_536),      // surface 2D height
    (58, 16_384),      // surface 3D width
    (59, 16_384),      // surface 3D height
    (60, 16_384),      // surface 3D depth
    (61, 32_768),      // surface 1D layered width
    (62, 2_048),       // surface 1D layered layers
    (63, 32_768),      // surface 2D layered width
    (64, 32_768),      // surface 2D layered height
    (65, 2_048),       // surface 2D layered layers
    (66, 32_768),      // surface cubemap width
    (67, 32_768),      // surface cubemap layered width
    (68, 2_046),       // surface cubemap layered layers
    (69, 268_435_456), // 1D linear width
    (70, 131_072),     // 2D linear width
    (71, 65_000),      // 2D linear height
    (72, 2_097_120),   // 2D linear pitch
    (73, 32_768),      // 2D mipmapped width
    (74, 32_768),      // 2D mipmapped height
    (77, 32_768),      // 1D mipmapped width
];

fn texture_limit(attr: i32) -> i32 {
    TEXTURE_LIMITS
        .iter()
        .find(|&&(a, _)| a == attr)
        .map_or(0, |&(_, v)| v)
}

impl DeviceInfo {
    /// `cudaDevAttrMaxPersistingL2CacheSize` (bytes): five eighths of the L2, as the H100's driver
    /// reports it (32768000 of 52428800; measured 2026-11-26, driver 580.159.04; other presets
    /// assumed alike). Persisting accesses are not modelled: the access policy window and its limit
    /// change no counter.
    pub fn persisting_l2_max(&self) -> i32 {
        self.l2_bytes / 8 * 5
    }

    /// The device for an architecture preset.
    pub fn for_arch(arch: &Arch) -> DeviceInfo {
        let mut d = DeviceInfo {
            name: "NVIDIA H100 80GB HBM3".into(),
            major: 9,
            minor: 0,
            sms: 132,
            threads_per_sm: 2048,
            blocks_per_sm: 32,
            regs_per_sm: 65536,
            smem_per_sm: 233472,
            smem_per_block: 49152,
            smem_per_block_optin: 232448,
            total_mem: 85017493504,
            l2_bytes: 52428800,
            bus_width: 5120,
            clock_khz: 1980000,
            memory_clock_khz: 2619000,
        };
        if arch.cc() != 90 {
            d.name = format!("warpscope emulated {} ({})", arch.name, arch.example_gpu);
            d.major = i32::from(arch.major);
            d.minor = i32::from(arch.minor);
            if let Ok(l) = warpscope_model::occupancy::Limits::for_arch(arch) {
                d.threads_per_sm = l.max_threads_per_sm as i32;
                d.blocks_per_sm = l.max_blocks_per_sm as i32;
                d.regs_per_sm = l.regs_per_sm as i32;
                d.smem_per_sm = l.smem_per_sm as usize;
                d.smem_per_block = l.smem_per_block as usize;
                d.smem_per_block_optin = l.smem_per_block_optin as usize;
                d.sms = l.sm_count as i32;
            }
        }
        d
    }

    /// `cudaDeviceGetAttribute`: the value, or `None` for an attribute not modelled.
    pub fn attribute(&self, attr: i32) -> Option<i32> {
        Some(match attr {
            1 => 1024,
            2 | 3 => 1024,
            4 => 64,
            5 => i32::MAX,
            6 | 7 => 65535,
            8 => self.smem_per_block as i32,
            9 => 65536,
            10 => 32,
            11 => i32::MAX,
            12 => self.regs_per_sm,
            13 => self.clock_khz,
            14 => 512,
            15 => 1,
            16 => self.sms,
            17 | 18 => 0,
            19 => 1,
            20 => 0,
            a if TEXTURE_LIMITS.iter().any(|&(t, _)| t == a) => texture_limit(a),
            30 => 512,
            31 | 32 => 1,
            33 => 0,
            34 => 6,
            36 => self.memory_clock_khz,
            37 => self.bus_width,
            38 => self.l2_bytes,
            39 => self.threads_per_sm,
            40 => 3,
            41 => 1,
            50 => 0,
            51 => 32,
            75 => self.major,
            76 => self.minor,
            78..=80 => 1,
            81 => self.smem_per_sm as i32,
            82 => self.regs_per_sm,
            83 => 1,
            84 => 0,
            86 => 0,
            87 => 2,
            88 => 0,
            89..=91 => 1,
            95 => 1,
            97 => self.smem_per_block_optin as i32,
            99 => 1,
            106 => self.blocks_per_sm,
            108 => self.persisting_l2_max(),
            109 => ACCESS_POLICY_MAX_WINDOW,
            111 => 1024,
            115 => 1,
            120 => i32::from(self.major >= 9),
            _ => return None,
        })
    }
}

/// `cudaUUID_t`
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Uuid {
    /// Bytes.
    pub bytes: [u8; 16],
}

/// CUDA 13's `struct cudaDeviceProp` (1008 bytes), field for field.
#[repr(C)]
#[allow(non_snake_case, missing_docs)]
#[derive(Clone, Copy)]
pub struct CudaDeviceProp {
    pub name: [u8; 256],
    pub uuid: Uuid,
    pub luid: [u8; 8],
    pub luidDeviceNodeMask: u32,
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: i32,
    pub warpSize: i32,
    pub memPitch: usize,
    pub maxThreadsPerBlock: i32,
    pub maxThreadsDim: [i32; 3],
    pub maxGridSize: [i32; 3],
    pub totalConstMem: usize,
    pub major: i32,
    pub minor: i32,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub multiProcessorCount: i32,
    pub integrated: i32,
    pub canMapHostMemory: i32,
    pub maxTexture1D: i32,
    pub maxTexture1DMipmap: i32,
    pub maxTexture2D: [i32; 2],
    pub maxTexture2DMipmap: [i32; 2],
    pub maxTexture2DLinear: [i32; 3],
    pub maxTexture2DGather: [i32; 2],
    pub maxTexture3D: [i32; 3],
    pub maxTexture3DAlt: [i32; 3],
    pub maxTextureCubemap: i32,
    pub maxTexture1DLayered: [i32; 2],
    pub maxTexture2DLayered: [i32; 3],
    pub maxTextureCubemapLayered: [i32; 2],
    pub maxSurface1D: i32,
    pub maxSurface2D: [i32; 2],
    pub maxSurface3D: [i32; 3],
    pub maxSurface1DLayered: [i32; 2],
    pub maxSurface2DLayered: [i32; 3],
    pub maxSurfaceCubemap: i32,
    pub maxSurfaceCubemapLayered: [i32; 2],
    pub surfaceAlignment: usize,
    pub concurrentKernels: i32,
    pub ECCEnabled: i32,
    pub pciBusID: i32,
    pub pciDeviceID: i32,
    pub pciDomainID: i32,
    pub tccDriver: i32,
    pub asyncEngineCount: i32,
    pub unifiedAddressing: i32,
    pub memoryBusWidth: i32,
    pub l2CacheSize: i32,
    pub persistingL2CacheMaxSize: i32,
    pub maxThreadsPerMultiProcessor: i32,
    pub streamPrioritiesSupported: i32,
    pub globalL1CacheSupported: i32,
    pub localL1CacheSupported: i32,
    pub sharedMemPerMultiprocessor: usize,
    pub regsPerMultiprocessor: i32,
    pub managedMemory: i32,
    pub isMultiGpuBoard: i32,
    pub multiGpuBoardGroupID: i32,
    pub hostNativeAtomicSupported: i32,
    pub pageableMemoryAccess: i32,
    pub concurrentManagedAccess: i32,
    pub computePreemptionSupported: i32,
    pub canUseHostPointerForRegisteredMem: i32,
    pub cooperativeLaunch: i32,
    pub sharedMemPerBlockOptin: usize,
    pub pageableMemoryAccessUsesHostPageTables: i32,
    pub directManagedMemAccessFromHost: i32,
    pub maxBlocksPerMultiProcessor: i32,
    pub accessPolicyMaxWindowSize: i32,
    pub reservedSharedMemPerBlock: usize,
    pub hostRegisterSupported: i32,
    pub sparseCudaArraySupported: i32,
    pub hostRegisterReadOnlySupported: i32,
    pub timelineSemaphoreInteropSupported: i32,
    pub memoryPoolsSupported: i32,
    pub gpuDirectRDMASupported: i32,
    pub gpuDirectRDMAFlushWritesOptions: u32,
    pub gpuDirectRDMAWritesOrdering: i32,
    pub memoryPoolSupportedHandleTypes: u32,
    pub deferredMappingCudaArraySupported: i32,
    pub ipcEventSupported: i32,
    pub clusterLaunch: i32,
    pub unifiedFunctionPointers: i32,
    pub deviceNumaConfig: i32,
    pub deviceNumaId: i32,
    pub mpsEnabled: i32,
    pub hostNumaId: i32,
    pub gpuPciDeviceID: u32,
    pub gpuPciSubsystemID: u32,
    pub hostNumaMultinodeIpcSupported: i32,
    pub reserved: [i32; 56],
}

impl CudaDeviceProp {
    /// The struct for a device.
    pub fn from_info(d: &DeviceInfo) -> CudaDeviceProp {
        // SAFETY: every field is an integer or an array of integers; all zeros is a valid value.
        let mut p: CudaDeviceProp = unsafe { std::mem::zeroed() };
        let n = d.name.as_bytes();
        p.name[..n.len().min(255)].copy_from_slice(&n[..n.len().min(255)]);
        p.totalGlobalMem = d.total_mem;
        p.sharedMemPerBlock = d.smem_per_block;
        p.regsPerBlock = d.regs_per_sm;
        p.warpSize = 32;
        p.memPitch = i32::MAX as usize;
        p.maxThreadsPerBlock = 1024;
        p.maxThreadsDim = [1024, 1024, 64];
        p.maxGridSize = [i32::MAX, 65535, 65535];
        p.totalConstMem = 65536;
        p.major = d.major;
        p.minor = d.minor;
        p.textureAlignment = 512;
        let t = texture_limit;
        p.maxTexture1D = t(21);
        p.maxTexture1DMipmap = t(77);
        p.maxTexture2D = [t(22), t(23)];
        p.maxTexture2DMipmap = [t(73), t(74)];
        p.maxTexture2DLinear = [t(70), t(71), t(72)];
        p.maxTexture2DGather = [t(45), t(46)];
        p.maxTexture3D = [t(24), t(25), t(26)];
        p.maxTexture3DAlt = [t(47), t(48), t(49)];
        p.maxTextureCubemap = t(52);
        p.maxTexture1DLayered = [t(42), t(43)];
        p.maxTexture2DLayered = [t(27), t(28), t(29)];
        p.maxTextureCubemapLayered = [t(53), t(54)];
        p.maxSurface1D = t(55);
        p.maxSurface2D = [t(56), t(57)];
        p.maxSurface3D = [t(58), t(59), t(60)];
        p.maxSurface1DLayered = [t(61), t(62)];
        p.maxSurface2DLayered = [t(63), t(64), t(65)];
        p.maxSurfaceCubemap = t(66);
        p.maxSurfaceCubemapLayered = [t(67), t(68)];
        p.surfaceAlignment = 512;
        p.texturePitchAlignment = 32;
        p.multiProcessorCount = d.sms;
        p.canMapHostMemory = 1;
        p.concurrentKernels = 1;
        p.ECCEnabled = 1;
        p.asyncEngineCount = 3;
        p.unifiedAddressing = 1;
        p.memoryBusWidth = d.bus_width;
        p.l2CacheSize = d.l2_bytes;
        p.persistingL2CacheMaxSize = d.persisting_l2_max();
        p.accessPolicyMaxWindowSize = ACCESS_POLICY_MAX_WINDOW;
        p.maxThreadsPerMultiProcessor = d.threads_per_sm;
        p.streamPrioritiesSupported = 1;
        p.globalL1CacheSupported = 1;
        p.localL1CacheSupported = 1;
        p.sharedMemPerMultiprocessor = d.smem_per_sm;
        p.regsPerMultiprocessor = d.regs_per_sm;
        p.managedMemory = 1;
        p.concurrentManagedAccess = 1;
        p.computePreemptionSupported = 1;
        p.canUseHostPointerForRegisteredMem = 1;
        p.cooperativeLaunch = 1;
        p.sharedMemPerBlockOptin = d.smem_per_block_optin;
        p.maxBlocksPerMultiProcessor = d.blocks_per_sm;
        p.reservedSharedMemPerBlock = 1024;
        p.hostRegisterSupported = 1;
        p.memoryPoolsSupported = 1;
        p.clusterLaunch = i32::from(d.major >= 9);
        p.deviceNumaId = -1;
        p.hostNumaId = -1;
        p
    }
}

/// CUDA 13's `struct cudaFuncAttributes` (144 bytes).
#[repr(C)]
#[allow(non_snake_case, missing_docs)]
#[derive(Clone, Copy)]
pub struct CudaFuncAttributes {
    pub sharedSizeBytes: usize,
    pub constSizeBytes: usize,
    pub localSizeBytes: usize,
    pub maxThreadsPerBlock: i32,
    pub numRegs: i32,
    pub ptxVersion: i32,
    pub binaryVersion: i32,
    pub cacheModeCA: i32,
    pub maxDynamicSharedSizeBytes: i32,
    pub preferredShmemCarveout: i32,
    pub clusterDimMustBeSet: i32,
    pub requiredClusterWidth: i32,
    pub requiredClusterHeight: i32,
    pub requiredClusterDepth: i32,
    pub clusterSchedulingPolicyPreference: i32,
    pub nonPortableClusterSizeAllowed: i32,
    pub deviceNodeUpdateStatus: i32,
    pub sharedMemoryMode: i32,
    pub reserved: [i32; 14],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_match_cuda_13() {
        // sizeof as g++ reports it for CUDA 13's driver_types.h
        assert_eq!(std::mem::size_of::<CudaDeviceProp>(), 1008);
        assert_eq!(std::mem::size_of::<CudaFuncAttributes>(), 144);
        assert_eq!(std::mem::offset_of!(CudaDeviceProp, totalGlobalMem), 288);
        assert_eq!(std::mem::offset_of!(CudaDeviceProp, major), 360);
    }

    #[test]
    fn h100_answers() {
        let d = DeviceInfo::for_arch(Arch::parse("sm_90").unwrap());
        assert_eq!(d.attribute(16), Some(132));
        assert_eq!(d.attribute(75), Some(9));
        // the clocks CUDA 13 dropped from cudaDeviceProp but still answers as attributes
        // (cuda-samples' device selection asks for cudaDevAttrClockRate)
        assert_eq!(d.attribute(13), Some(1_980_000));
        assert_eq!(d.attribute(36), Some(2_619_000));
        assert_eq!(d.attribute(10_000), None);
        let p = CudaDeviceProp::from_info(&d);
        assert_eq!(&p.name[..21], b"NVIDIA H100 80GB HBM3");
        // texture and surface limits (the H100's device__attribute_maximum_texture*/_surface*)
        assert_eq!(d.attribute(21), Some(131_072));
        assert_eq!(d.attribute(26), Some(16_384));
        assert_eq!(d.attribute(43), Some(2_048));
        assert_eq!(d.attribute(72), Some(2_097_120));
        assert_eq!(d.attribute(30), Some(512));
        assert_eq!(p.maxTexture2D, [131_072, 65_536]);
        assert_eq!(p.maxTexture3D, [16_384, 16_384, 16_384]);
        assert_eq!(p.maxTexture2DLayered, [32_768, 32_768, 2_048]);
        assert_eq!(p.maxSurfaceCubemapLayered, [32_768, 2_046]);
    }
}
