//! The device runtime of dynamic parallelism (CUDA 12+, CDP2): kernels launching kernels.
//!
//! A launching thread's `cudaGetParameterBufferV2(kernel, grid, block, smem)` gets a slot of its
//! own local memory that the lowering reserved for the call site (`warpscope_ptx::lower`'s
//! `devrt.rs`): the launch's description in a header, then the kernel's parameters, where the
//! returned buffer starts. `cudaLaunchDeviceV2(buffer, stream)` checks the description and records a
//! [`DeviceLaunch`] with a copy of the parameters (the slot can be used again at once). The
//! launches come back with the run ([`crate::RunResult::launches`]) in block order, then each
//! block's execution order; the caller (the CUDA runtime) runs them after the launching grid, which
//! CDP2 allows: a parent grid completes only after its children, a child launched into the NULL
//! stream, a created stream, fire-and-forget or as a tail launch may start at any time after its
//! launch (a tail launch after the parent grid and its other children), so running every child
//! after its parent grid's blocks is one valid schedule, and a deterministic one.
//!
//! A thread's last error (`cudaGetLastError`, `cudaPeekAtLastError`) is a word of its local
//! memory. Streams a thread creates are handles with [`DEVICE_STREAM_TAG`]; a launch into one is
//! ordered as any other (launch order).

use warpscope_ptx::inst::{DEVRT_HEADER, DevRtCall};

use crate::mem;

/// The deepest a grid may be nested here: host launches are depth 0, a grid at depth
/// `MAX_DEPTH - 1` cannot launch (`cudaErrorLaunchMaxDepthExceeded`). The emulator's own guard
/// against a recursion without end: CUDA documents 24 levels, but an H200 with CUDA 13 ran a chain
/// of 31 grids (depths 0 to 30) with every launch returning `cudaSuccess`
/// (calibration/run/h200/dp_limits.stdout), so no lower limit is imposed.
pub const MAX_DEPTH: u32 = 64;

/// `cudaStreamTailLaunch`'s handle in device code.
pub const STREAM_TAIL_LAUNCH: u64 = 3;
/// `cudaStreamFireAndForget`'s handle in device code.
pub const STREAM_FIRE_AND_FORGET: u64 = 4;
/// The high bits of a stream handle `cudaStreamCreateWithFlags` gives in device code.
pub const DEVICE_STREAM_TAG: u64 = 0x0d5e_0000_0000_0000;
const TAG_MASK: u64 = 0xffff_0000_0000_0000;
/// The check word a parameter buffer's header ends with.
const HEADER_MAGIC: u32 = 0xcd92_0002;

/// CUDA error codes the device runtime returns.
pub mod code {
    /// `cudaSuccess`
    pub const SUCCESS: u32 = 0;
    /// `cudaErrorInvalidValue`
    pub const INVALID_VALUE: u32 = 1;
    /// `cudaErrorInvalidConfiguration`
    pub const INVALID_CONFIGURATION: u32 = 9;
    /// `cudaErrorLaunchMaxDepthExceeded`
    pub const LAUNCH_MAX_DEPTH_EXCEEDED: u32 = 65;
    /// `cudaErrorInvalidDeviceFunction`
    pub const INVALID_DEVICE_FUNCTION: u32 = 98;
    /// `cudaErrorInvalidDevice`
    pub const INVALID_DEVICE: u32 = 101;
    /// `cudaErrorInvalidResourceHandle`
    pub const INVALID_RESOURCE_HANDLE: u32 = 400;
}

/// What the device runtime of a launch knows: how deep the grid is nested, the device, its
/// attributes (`cudaDeviceGetAttribute`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DevRtEnv {
    /// The grid's nesting depth (0: launched from the host).
    pub depth: u32,
    /// The device's ordinal (`cudaGetDevice`).
    pub device: i32,
    /// `(cudaDeviceAttr, value)` pairs `cudaDeviceGetAttribute` answers; others are invalid.
    pub attributes: Vec<(i32, i32)>,
    /// Bytes of shared memory a block may have with the opt-in (the dynamic shared memory a
    /// launch asks for and the kernel's static shared memory together); 0: not checked.
    pub max_smem: u32,
}

/// The stream a device-side launch went into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceStream {
    /// The NULL stream (the launching block's, in launch order).
    Null,
    /// `cudaStreamTailLaunch`: after the launching grid and all its other work.
    Tail,
    /// `cudaStreamFireAndForget`
    FireAndForget,
    /// A stream the launching thread created (`cudaStreamCreateWithFlags`), its handle.
    Created(u64),
}

impl DeviceStream {
    /// As CUDA names it.
    pub fn name(&self) -> &'static str {
        match self {
            DeviceStream::Null => "null",
            DeviceStream::Tail => "tail",
            DeviceStream::FireAndForget => "fire_and_forget",
            DeviceStream::Created(_) => "created",
        }
    }
}

/// One kernel launched by a thread of the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceLaunch {
    /// The launching block's linear id.
    pub block: u32,
    /// The launching thread's linear id in its block.
    pub thread: u32,
    /// The `cudaLaunchDeviceV2` call's pc.
    pub pc: u32,
    /// The launched kernel's PTX entry name.
    pub kernel: String,
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block_dim: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// The parameters as the kernel's parameter layout places them.
    pub params: Vec<u8>,
    /// The stream.
    pub stream: DeviceStream,
    /// How many `printf` calls the launching warp had made before it launched.
    pub printf_seq: u32,
}

/// A lane's device runtime call could not read or write its parameters: the local offset (or the
/// address) that is outside its memory.
pub(crate) struct OutOfBounds;

/// The thread's memory a device runtime call uses: its local frame and, for the pointers it is
/// given, the global space.
pub(crate) struct Lane<'a> {
    pub local: &'a mut [u8],
    /// One bit per byte of the block's local memory: stored in this launch.
    pub stored: &'a mut [u64],
    pub frame: u64,
    pub local_size: u64,
    pub global: &'a mem::Global,
}

impl Lane<'_> {
    fn read(&self, off: u64, w: u64) -> Result<u64, OutOfBounds> {
        if off + w > self.local_size {
            return Err(OutOfBounds);
        }
        mem::read_bytes(self.local, self.frame + off, w).ok_or(OutOfBounds)
    }
    fn write(&mut self, off: u64, w: u64, v: u64) -> Result<(), OutOfBounds> {
        if off + w > self.local_size {
            return Err(OutOfBounds);
        }
        mem::write_bytes(self.local, self.frame + off, w, v).ok_or(OutOfBounds)?;
        for b in self.frame + off..self.frame + off + w {
            if let Some(x) = self.stored.get_mut((b / 64) as usize) {
                *x |= 1 << (b % 64);
            }
        }
        Ok(())
    }
    fn dims(&self, off: u64) -> Result<[u32; 3], OutOfBounds> {
        Ok([
            self.read(off, 4)? as u32,
            self.read(off + 4, 4)? as u32,
            self.read(off + 8, 4)? as u32,
        ])
    }
    /// A store through a pointer the program passed (`&stream`, `&value`): the thread's local
    /// memory through its generic window, or global memory.
    fn store(&mut self, addr: u64, w: u64, v: u64) -> Result<(), OutOfBounds> {
        if (mem::LOCAL_WINDOW..mem::LOCAL_WINDOW + mem::WINDOW).contains(&addr) {
            return self.write(addr - mem::LOCAL_WINDOW, w, v);
        }
        if (mem::PARAM_WINDOW..mem::SHARED_WINDOW + mem::WINDOW).contains(&addr) {
            // the shared, constant or parameter windows: not where the runtime's results go here
            return Err(OutOfBounds);
        }
        self.global.write(addr, w, v).ok_or(OutOfBounds)
    }
}

/// The call's operands: see `warpscope_ptx::inst::Inst::DevRt`.
pub(crate) struct Call {
    pub call: DevRtCall,
    pub args: [u16; 4],
    pub ret: u16,
    pub slot: u32,
}

/// Runs one lane's device runtime call. `launches` gets a launch the call makes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn exec_lane(
    prog: &warpscope_ptx::lower::Program,
    env: &DevRtEnv,
    lane: &mut Lane<'_>,
    c: &Call,
    block: u32,
    tid: u32,
    pc: u32,
    printf_seq: u32,
    launches: &mut Vec<DeviceLaunch>,
) -> Result<(), OutOfBounds> {
    let arg = |i: usize| u64::from(c.args[i]);
    let ret = u64::from(c.ret);
    let slot = u64::from(c.slot);
    match c.call {
        DevRtCall::GetParameterBuffer => {
            let func = lane.read(arg(0), 8)?;
            let grid = lane.dims(arg(1))?;
            let blk = lane.dims(arg(2))?;
            let smem = lane.read(arg(3), 4)?;
            let h = slot;
            lane.write(h, 8, func)?;
            for (i, d) in grid.iter().chain(&blk).enumerate() {
                lane.write(h + 8 + 4 * i as u64, 4, u64::from(*d))?;
            }
            lane.write(h + 32, 4, smem)?;
            lane.write(h + 36, 4, u64::from(HEADER_MAGIC))?;
            lane.write(ret, 8, mem::LOCAL_WINDOW + slot + u64::from(DEVRT_HEADER))?;
        }
        DevRtCall::LaunchDevice => {
            let buf = lane.read(arg(0), 8)?;
            let stream = lane.read(arg(1), 8)?;
            let errw = slot;
            let r = launch(prog, env, lane, buf, stream, block, tid, pc);
            let code = match r? {
                Ok(l) => {
                    launches.push(DeviceLaunch { printf_seq, ..l });
                    code::SUCCESS
                }
                Err(e) => e,
            };
            if code != code::SUCCESS {
                lane.write(errw, 4, u64::from(code))?;
            }
            lane.write(ret, 4, u64::from(code))?;
        }
        DevRtCall::StreamCreate => {
            let at = lane.read(arg(0), 8)?;
            let flags = lane.read(arg(1), 4)? as u32;
            // the device runtime makes non-blocking streams only (cudaStreamNonBlocking = 1)
            let code = if flags & 1 == 0 {
                code::INVALID_VALUE
            } else {
                lane.store(
                    at,
                    8,
                    DEVICE_STREAM_TAG | (u64::from(block) << 10) | u64::from(tid),
                )?;
                code::SUCCESS
            };
            finish(lane, slot, ret, code)?;
        }
        DevRtCall::StreamDestroy => {
            let s = lane.read(arg(0), 8)?;
            let code = if s & TAG_MASK == DEVICE_STREAM_TAG {
                code::SUCCESS
            } else {
                code::INVALID_RESOURCE_HANDLE
            };
            finish(lane, slot, ret, code)?;
        }
        DevRtCall::GetDevice => {
            let at = lane.read(arg(0), 8)?;
            lane.store(at, 4, env.device as u32 as u64)?;
            finish(lane, slot, ret, code::SUCCESS)?;
        }
        DevRtCall::DeviceGetAttribute => {
            let at = lane.read(arg(0), 8)?;
            let attr = lane.read(arg(1), 4)? as u32 as i32;
            let dev = lane.read(arg(2), 4)? as u32 as i32;
            let code = if dev != env.device {
                code::INVALID_DEVICE
            } else if let Some(&(_, v)) = env.attributes.iter().find(|(a, _)| *a == attr) {
                lane.store(at, 4, v as u32 as u64)?;
                code::SUCCESS
            } else {
                code::INVALID_VALUE
            };
            finish(lane, slot, ret, code)?;
        }
        DevRtCall::GetLastError => {
            let e = lane.read(slot, 4)?;
            lane.write(slot, 4, 0)?;
            lane.write(ret, 4, e)?;
        }
        DevRtCall::PeekAtLastError => {
            let e = lane.read(slot, 4)?;
            lane.write(ret, 4, e)?;
        }
    }
    Ok(())
}

/// A call's result: returned, and kept as the thread's last error when it is one.
fn finish(lane: &mut Lane<'_>, errw: u64, ret: u64, code: u32) -> Result<(), OutOfBounds> {
    if code != code::SUCCESS {
        lane.write(errw, 4, u64::from(code))?;
    }
    lane.write(ret, 4, u64::from(code))
}

/// `cudaLaunchDeviceV2(buf, stream)`: the launch, or the error the device runtime returns.
#[allow(clippy::too_many_arguments)]
fn launch(
    prog: &warpscope_ptx::lower::Program,
    env: &DevRtEnv,
    lane: &Lane<'_>,
    buf: u64,
    stream: u64,
    block: u32,
    tid: u32,
    pc: u32,
) -> Result<Result<DeviceLaunch, u32>, OutOfBounds> {
    // the buffer must be one `cudaGetParameterBufferV2` gave this thread
    let Some(h) = buf.checked_sub(mem::LOCAL_WINDOW + u64::from(DEVRT_HEADER)) else {
        return Ok(Err(code::INVALID_VALUE));
    };
    let start = h + u64::from(DEVRT_HEADER);
    if start > lane.local_size || lane.read(h + 36, 4)? != u64::from(HEADER_MAGIC) {
        return Ok(Err(code::INVALID_VALUE));
    }
    let func = lane.read(h, 8)?;
    let grid = lane.dims(h + 8)?;
    let blk = lane.dims(h + 20)?;
    let smem = lane.read(h + 32, 4)? as u32;
    let Some(k) = prog
        .kernel_addresses
        .iter()
        .find(|(_, a)| *a == func)
        .and_then(|(n, _)| prog.kernel(n))
    else {
        return Ok(Err(code::INVALID_DEVICE_FUNCTION));
    };
    let threads: u64 = blk.iter().map(|&b| u64::from(b)).product();
    if threads == 0
        || threads > 1024
        || blk[2] > 64
        || grid.contains(&0)
        || grid[1] > 65535
        || grid[2] > 65535
        || grid[0] > i32::MAX as u32
    {
        return Ok(Err(code::INVALID_CONFIGURATION));
    }
    if env.max_smem > 0 && u64::from(k.static_smem) + u64::from(smem) > u64::from(env.max_smem) {
        return Ok(Err(code::INVALID_VALUE));
    }
    let stream = match stream {
        0 => DeviceStream::Null,
        STREAM_TAIL_LAUNCH => DeviceStream::Tail,
        STREAM_FIRE_AND_FORGET => DeviceStream::FireAndForget,
        s if s & TAG_MASK == DEVICE_STREAM_TAG => DeviceStream::Created(s),
        _ => return Ok(Err(code::INVALID_RESOURCE_HANDLE)),
    };
    if env.depth + 1 >= MAX_DEPTH {
        return Ok(Err(code::LAUNCH_MAX_DEPTH_EXCEEDED));
    }
    let mut params = vec![0u8; k.param_size as usize];
    for (i, b) in params.iter_mut().enumerate() {
        *b = lane.read(start + i as u64, 1)? as u8;
    }
    Ok(Ok(DeviceLaunch {
        block,
        thread: tid,
        pc,
        kernel: k.name.clone(),
        grid,
        block_dim: blk,
        dyn_smem: smem,
        params,
        stream,
        printf_seq: 0,
    }))
}
