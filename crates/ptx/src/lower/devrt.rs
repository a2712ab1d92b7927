//! Calls of the CUDA device runtime (dynamic parallelism: a kernel launching kernels, built with
//! `-rdc=true` and linked with `-lcudadevrt`).
//!
//! For `child<<<g, b, smem, stream>>>(args)` in device code nvcc (CUDA 12+, CDP2) emits
//! `__cudaCDP2GetParameterBufferV2(child, g, b, smem)`, stores the arguments into the buffer it
//! returns as the kernel's parameter layout places them, and calls
//! `__cudaCDP2LaunchDeviceV2(buffer, stream)`; the kernel's address is `mov.u64 %rd, child;`
//! (every `.entry` has one here, as every `.func` does: [`super::indirect::func_address`]). These
//! and the runtime's common queries are lowered to one [`Inst::DevRt`] each, which the emulator
//! runs. The buffer is a slot of the calling thread's local memory reserved for the call site
//! (a header the emulator fills, [`DEVRT_HEADER`] bytes, then the parameters). Other device runtime
//! functions fail the kernel's lowering with their name.

use super::{KCtx, LResult, Sym, align_up, elem_size, var_size};
use crate::inst::*;
use crate::parse::{Module, Operand};

/// The device runtime function `name` names (without its `__cudaCDP2` prefix) and its argument
/// count, or `None` for a function the emulator does not run.
fn known(name: &str) -> Option<(DevRtCall, usize)> {
    Some(match name {
        "GetParameterBufferV2" => (DevRtCall::GetParameterBuffer, 4),
        "LaunchDeviceV2" => (DevRtCall::LaunchDevice, 2),
        "StreamCreateWithFlags" => (DevRtCall::StreamCreate, 2),
        "StreamDestroy" => (DevRtCall::StreamDestroy, 1),
        "GetDevice" => (DevRtCall::GetDevice, 1),
        "DeviceGetAttribute" => (DevRtCall::DeviceGetAttribute, 3),
        "GetLastError" => (DevRtCall::GetLastError, 0),
        "PeekAtLastError" => (DevRtCall::PeekAtLastError, 0),
        _ => return None,
    })
}

/// Device runtime functions of CUDA before 12 (CDP1, no `__cudaCDP2` prefix) that the emulator
/// knows by name: the ones it runs (`V2` launches and the queries) and those it refuses.
const CDP1_NAMES: &[&str] = &[
    "cudaGetParameterBufferV2",
    "cudaLaunchDeviceV2",
    "cudaStreamCreateWithFlags",
    "cudaStreamDestroy",
    "cudaGetDevice",
    "cudaDeviceGetAttribute",
    "cudaGetLastError",
    "cudaPeekAtLastError",
    "cudaGetParameterBuffer",
    "cudaLaunchDevice",
    "cudaDeviceSynchronize",
    "cudaMalloc",
    "cudaFree",
    "cudaMemcpyAsync",
    "cudaMemsetAsync",
    "cudaEventCreateWithFlags",
    "cudaEventRecord",
    "cudaEventDestroy",
    "cudaStreamWaitEvent",
    "cudaFuncGetAttributes",
    "cudaDeviceGetLimit",
    "cudaDeviceGetCacheConfig",
    "cudaDeviceGetSharedMemConfig",
    "cudaGetErrorString",
    "cudaGetErrorName",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
];

/// The device runtime function a bodiless callee names, without its prefix (`__cudaCDP2Launch...`
/// → `Launch...`), or `None` when it is none.
fn devrt_name(fname: &str) -> Option<&str> {
    if let Some(rest) = fname.strip_prefix("__cudaCDP2") {
        return Some(rest);
    }
    CDP1_NAMES
        .contains(&fname)
        .then(|| fname.strip_prefix("cuda").unwrap_or(fname))
}

/// The most bytes of parameters any kernel of the module takes (its parameter layout's size).
pub(super) fn max_param_bytes(m: &Module) -> u32 {
    m.functions
        .iter()
        .filter(|f| f.is_entry)
        .map(|f| {
            let mut off = 0u64;
            for p in &f.params {
                let align = if p.align > 0 { p.align as u64 } else { elem_size(p) };
                off = align_up(off, align) + var_size(p);
            }
            off.min(u64::from(u32::MAX / 2)) as u32
        })
        .max()
        .unwrap_or(0)
}

impl<'m> KCtx<'m> {
    /// Lowers `call (rets), fname, (args)` when `fname` is a device runtime function the module has
    /// no body for: `None` when it is none (an ordinary call).
    pub(super) fn devrt_call(
        &mut self,
        fname: &str,
        args: &[Operand],
        rets: &[Operand],
    ) -> Option<LResult<()>> {
        if self
            .module
            .functions
            .iter()
            .any(|f| f.name == fname && f.body.is_some())
        {
            return None;
        }
        let name = devrt_name(fname)?;
        let Some((call, n_args)) = known(name) else {
            return Some(self.err(format!(
                "the device runtime's `cuda{name}` (dynamic parallelism) is not emulated (launches \
                 with cudaGetParameterBufferV2/cudaLaunchDeviceV2, cudaStreamCreateWithFlags, \
                 cudaStreamDestroy, cudaGetDevice, cudaDeviceGetAttribute, cudaGetLastError and \
                 cudaPeekAtLastError are)"
            )));
        };
        Some(self.devrt_inst(call, n_args, name, args, rets))
    }

    fn devrt_inst(
        &mut self,
        call: DevRtCall,
        n_args: usize,
        name: &str,
        args: &[Operand],
        rets: &[Operand],
    ) -> LResult<()> {
        if args.len() != n_args || rets.len() > 1 {
            return self.err(format!(
                "the device runtime's `cuda{name}` takes {n_args} arguments and returns one value"
            ));
        }
        let mut offs = [0u16; 4];
        for (i, a) in args.iter().enumerate() {
            offs[i] = self.devrt_param(a)?;
        }
        let ret = match rets.first() {
            Some(r) => self.devrt_param(r)?,
            None => {
                let o = self.alloc_local(8, 8);
                self.small_offset(o)?
            }
        };
        let slot = match call {
            DevRtCall::GetParameterBuffer => {
                let params = u64::from(max_param_bytes(self.module)).div_ceil(16) * 16;
                self.alloc_local(u64::from(DEVRT_HEADER) + params, 64)
            }
            _ => self.devrt_error_word(),
        };
        self.push(
            Inst::DevRt {
                call,
                args: offs,
                ret,
                slot,
            },
            PSrc::TRUE,
        );
        Ok(())
    }

    /// The local offset of the thread's last device-runtime error (one word per kernel).
    fn devrt_error_word(&mut self) -> u32 {
        if let Some(o) = self.devrt_err {
            return o;
        }
        let o = self.alloc_local(4, 4);
        self.devrt_err = Some(o);
        o
    }

    fn devrt_param(&mut self, a: &Operand) -> LResult<u16> {
        let Operand::Name(an) = a else {
            return self.err("call arguments must be `.param` names");
        };
        match self.lookup(an) {
            Some(Sym::CallParam(o)) => self.small_offset(o),
            _ => self.err(format!("`{an}` is not a `.param` variable")),
        }
    }

    fn small_offset(&mut self, o: u32) -> LResult<u16> {
        u16::try_from(o).or_else(|_| {
            self.err("a device runtime call's parameters lie over 64 KB into the thread's local memory")
        })
    }
}
