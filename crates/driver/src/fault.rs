//! The emulator's faults in words a person understands, as compute-sanitizer's memcheck puts them:
//! what the instruction did (a load or a store, how many bytes, in which memory), where (the source
//! line when the PTX has line information, else the PTX line), by which thread (block and thread
//! as (x, y, z)), the address and the argument it points into or near, and what a GPU does then.
//!
//! [`describe`] is the one place a fault becomes text: the findings of `check`, the faults of
//! `analyze`, `fix`, `report` and `warpscope run` all come from it.

use warpscope_emu::{Arg, AssertFailure, EmuFault, FaultKind, Kernel, Program, Space};
use warpscope_ptx::inst::{Inst, MemSpace};

use crate::locate::locate;

/// Where [`warpscope_emu::run`] puts the first buffer argument (`warpscope_emu::mem::BUFFER_BASE`).
const BUFFER_BASE: u64 = 0x1_0000_0000;

/// A global buffer of the launch: an argument's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The argument's index (parameter order).
    pub arg: usize,
    /// Its address.
    pub base: u64,
    /// Its size in bytes.
    pub size: u64,
}

/// The buffers [`warpscope_emu::run`] places the [`Arg::Buffer`] arguments of `args` at: the first
/// at `BUFFER_BASE`, each next one 256 bytes past the previous one's end rounded up to 256 (the
/// emulator's layout; `tests/fault_words.rs` holds the two equal).
pub fn launch_buffers(args: &[Arg]) -> Vec<Buffer> {
    let mut next = BUFFER_BASE;
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let Arg::Buffer(b) = a {
            let size = b.len() as u64;
            out.push(Buffer {
                arg: i,
                base: next,
                size,
            });
            next = (next + size).div_ceil(256) * 256 + 256;
        }
    }
    out
}

/// What [`describe`] needs to know of the launch.
#[derive(Clone, Copy, Debug)]
pub struct LaunchContext<'a> {
    /// The program.
    pub program: &'a Program,
    /// The kernel.
    pub kernel: &'a Kernel,
    /// Grid, in blocks.
    pub grid: [u32; 3],
    /// Block, in threads.
    pub block: [u32; 3],
    /// The launch's global buffers.
    pub buffers: &'a [Buffer],
    /// The parameters' names in the source (empty when unknown).
    pub param_names: &'a [String],
    /// The failing device `assert`s of the launch.
    pub asserts: &'a [AssertFailure],
    /// Warp instructions one block may execute.
    pub max_instructions: u64,
    /// A cooperative launch.
    pub cooperative: bool,
}

/// `(x, y, z)` of linear index `i` in `dims`.
pub fn xyz(i: u64, dims: [u32; 3]) -> [u64; 3] {
    let x = u64::from(dims[0].max(1));
    let y = u64::from(dims[1].max(1));
    [i % x, (i / x) % y, i / (x * y)]
}

fn show(v: [u64; 3]) -> String {
    format!("({},{},{})", v[0], v[1], v[2])
}

/// What an instruction does to memory: (`load`, `store`, `atomic`, ...; bytes per thread).
fn access_of(program: &Program, pc: u32) -> (&'static str, Option<u32>) {
    let Some(op) = program.ops.get(pc as usize) else {
        return ("access", None);
    };
    match op.inst {
        Inst::Ld { ty, vec, .. } => ("load", Some(ty.bytes() * u32::from(vec.max(1)))),
        Inst::St { ty, vec, .. } => ("store", Some(ty.bytes() * u32::from(vec.max(1)))),
        Inst::Atom { ty, d, .. } => (
            if d == warpscope_ptx::inst::NO_REG {
                "reduction"
            } else {
                "atomic"
            },
            Some(ty.bytes()),
        ),
        Inst::LdMatrix { .. } => ("ldmatrix load", Some(16)),
        Inst::StMatrix { .. } => ("stmatrix store", Some(16)),
        Inst::CpAsync { size, .. } => ("cp.async copy", Some(u32::from(size))),
        Inst::WmmaLoad { ty, .. } => ("wmma load", Some(ty.bytes())),
        Inst::WmmaStore { ty, .. } => ("wmma store", Some(ty.bytes())),
        _ => ("access", None),
    }
}

/// The instruction's state space as PTX spells it, when it names one.
fn inst_space(program: &Program, pc: u32) -> Option<MemSpace> {
    match program.ops.get(pc as usize)?.inst {
        Inst::Ld { space, .. } | Inst::St { space, .. } | Inst::Atom { space, .. } => Some(space),
        _ => None,
    }
}

fn space_word(s: Space) -> &'static str {
    match s {
        Space::Shared => "shared",
        Space::Global => "global",
        Space::Local => "local",
        Space::Const => "constant",
        Space::Param => "parameter",
    }
}

/// `argument 0 `out``, or `argument 0` when the source does not name it.
fn argument(ctx: &LaunchContext<'_>, i: usize) -> String {
    // past the parameters: a buffer a struct field points to, named by the field
    if i >= ctx.kernel.params.len()
        && let Some(n) = ctx.param_names.get(i).filter(|n| !n.is_empty())
    {
        return n.clone();
    }
    match ctx.param_names.get(i).filter(|n| !n.is_empty()) {
        Some(n) => format!("argument {i} `{n}`"),
        None => format!("argument {i}"),
    }
}

/// Where a global address lies against the launch's buffers and the module's variables: inside
/// one (for an access that runs past its end), past its end, before its start, or near none.
fn global_place(ctx: &LaunchContext<'_>, addr: u64, width: u64) -> String {
    let mut regions: Vec<(String, u64, u64)> = ctx
        .buffers
        .iter()
        .map(|b| (argument(ctx, b.arg), b.base, b.size))
        .collect();
    for v in ctx.program.vars.iter().filter(|v| !v.is_const) {
        regions.push((format!("__device__ variable `{}`", v.name), v.addr, v.size));
    }
    let distance = |&(_, base, size): &(String, u64, u64)| {
        if addr < base {
            base - addr
        } else {
            addr.saturating_sub(base + size)
        }
    };
    let near = regions.iter().min_by_key(|r| distance(r));
    if addr < 4096 {
        return format!("address {addr:#x} is a null pointer (or an offset from one)");
    }
    match near {
        Some((name, base, size)) if distance(&(String::new(), *base, *size)) < (1 << 20) => {
            let end = base + size;
            let what = format!("{name} (a buffer of {size} bytes at {base:#x})");
            if addr >= end {
                let past = addr - end;
                if past == 0 {
                    format!("address {addr:#x} is just past the end of {what}")
                } else {
                    format!("address {addr:#x} is {past} bytes past the end of {what}")
                }
            } else if addr < *base {
                format!(
                    "address {addr:#x} is {} bytes before the start of {what}",
                    base - addr
                )
            } else {
                let over = (addr + width).saturating_sub(end);
                format!(
                    "address {addr:#x} is byte {} of {what}, and the {width}-byte access runs {over} bytes past its end",
                    addr - base
                )
            }
        }
        _ => format!("address {addr:#x} is in no buffer of the launch"),
    }
}

/// A global byte for a race message: `byte 8 of argument 0 `out` (address 0x100000008)`, or the
/// address alone when it lies in no buffer or variable the launch knows of.
pub fn global_byte(ctx: &LaunchContext<'_>, addr: u64) -> String {
    let mut regions: Vec<(String, u64, u64)> = ctx
        .buffers
        .iter()
        .map(|b| (argument(ctx, b.arg), b.base, b.size))
        .collect();
    for v in ctx.program.vars.iter().filter(|v| !v.is_const) {
        regions.push((format!("__device__ variable `{}`", v.name), v.addr, v.size));
    }
    match regions
        .iter()
        .find(|(_, base, size)| addr >= *base && addr - base < *size)
    {
        Some((name, base, _)) => format!("byte {} of {name} (address {addr:#x})", addr - base),
        None => format!("address {addr:#x}"),
    }
}

/// `"{space} offset 0x.."` of a faulting address: an address of a generic access that falls in
/// the space's window (`window`, [`warpscope_emu::mem::WINDOW`] bytes) is shown as the offset in
/// the space, with the generic address after it; a state-space address is the offset already.
fn window_offset(space: &str, addr: u64, window: u64) -> String {
    if (window..window + warpscope_emu::mem::WINDOW).contains(&addr) {
        format!("{space} offset {:#x} (generic address {addr:#x})", addr - window)
    } else {
        format!("{space} offset {addr:#x}")
    }
}

/// One sentence for a fault: what, where, by whom, and what a GPU does then.
pub fn describe(ctx: &LaunchContext<'_>, f: &EmuFault) -> String {
    let at = locate(ctx.program, f.pc).0.label;
    let block = show(xyz(u64::from(f.block), ctx.grid));
    let who = match f.lane {
        Some(l) => format!(
            "thread {} of block {block}",
            show(xyz(u64::from(f.warp) * 32 + u64::from(l), ctx.block))
        ),
        None => format!("warp {} of block {block}", f.warp),
    };
    let (op, bytes) = access_of(ctx.program, f.pc);
    let sized = |space: &str| match bytes {
        Some(n) => format!("{space} {op} of {n} bytes"),
        None => format!("{space} {op}"),
    };
    let addr = f.addr.unwrap_or(0);
    match f.kind {
        FaultKind::OutOfBounds { space } => {
            let width = u64::from(bytes.unwrap_or(1));
            let place = match space {
                Space::Global => global_place(ctx, addr, width),
                Space::Shared => {
                    let size = if ctx.kernel.static_smem > 0 || ctx.kernel.dyn_smem_base > 0 {
                        format!(
                            "the block's shared memory ({} bytes static",
                            ctx.kernel.static_smem
                        )
                    } else {
                        "the block's shared memory (no static shared memory".to_string()
                    };
                    format!(
                        "{} is outside {size}, plus --dyn-smem)",
                        window_offset("shared", addr, warpscope_emu::mem::SHARED_WINDOW)
                    )
                }
                Space::Local => format!(
                    "{} is outside the thread's {} bytes of local memory (a stack array indexed out of range)",
                    window_offset("local", addr, warpscope_emu::mem::LOCAL_WINDOW),
                    ctx.kernel.local_size
                ),
                Space::Const => format!(
                    "constant offset {addr:#x} is outside the module's {} bytes of __constant__ data",
                    ctx.program.const_bank.len()
                ),
                Space::Param => {
                    format!(
                        "offset {addr:#x} is outside the kernel's {} bytes of parameters",
                        ctx.kernel.param_size
                    )
                }
            };
            format!(
                "invalid {} at {at} by {who}: {place}; the GPU stops the launch with an illegal-address error",
                sized(space_word(space))
            )
        }
        FaultKind::Misaligned { space } => {
            let n = bytes.unwrap_or(1);
            format!(
                "misaligned {} at {at} by {who}: address {addr:#x} is not a multiple of {n}; the GPU stops the launch with a misaligned-address error",
                sized(space_word(space))
            )
        }
        FaultKind::ReadOnly { space } => {
            let what = match space {
                Space::Const => "__constant__ memory".to_string(),
                Space::Param => "its own parameters (read-only in this form)".to_string(),
                other => format!("read-only {} memory", space_word(other)),
            };
            let generic = inst_space(ctx.program, f.pc) == Some(MemSpace::Generic);
            format!(
                "kernel writes to {what} at {at} ({who}{}): the GPU stops the launch with an illegal-address error",
                if generic {
                    ", through a generic pointer"
                } else {
                    ""
                }
            )
        }
        FaultKind::BadCall => format!(
            "indirect call at {at} by {who} through a function pointer holding {addr:#x}, which is no \
             function's address (nor one with this call's parameter and return counts): the GPU stops the \
             launch with an invalid-program-counter error (cudaErrorInvalidPc)"
        ),
        FaultKind::Trap => {
            let text = &ctx.program.inst_info(f.pc).text;
            if text
                .split_whitespace()
                .any(|w| w.trim_end_matches(';') == "brkpt")
            {
                format!(
                    "breakpoint instruction (brkpt) at {at} reached by {who}: outside a debugger the GPU stops the launch with an illegal-instruction error"
                )
            } else if !ctx.cooperative
                && ctx.program.frames(f.pc).iter().any(|l| {
                    ctx.program.file_name(l.file).is_some_and(|n| {
                        n.rsplit('/')
                            .next()
                            .is_some_and(|b| b.starts_with("cooperative_groups"))
                    })
                })
            {
                format!(
                    "kernel traps at {at} in {who}: grid.sync() found no grid workspace, as in a launch that is not cooperative; check it with --cooperative (as cudaLaunchCooperativeKernel launches it: every block resident at once, which grid.sync() needs)"
                )
            } else if ctx.program.inst_info(f.pc).loc.is_none() {
                format!(
                    "kernel traps at {at} in {who}: the GPU stops the launch (unspecified launch failure); a trap with no source line is one the compiler put where the source has undefined behaviour (a store to __constant__ memory, ...): build with --nvrtc-option=-G to see the line"
                )
            } else {
                format!(
                    "kernel traps (trap, __trap()) at {at} in {who}: the GPU stops the launch (unspecified launch failure)"
                )
            }
        }
        FaultKind::Assert => {
            let failed = ctx
                .asserts
                .iter()
                .find(|a| a.pc == f.pc && linear(a.block, ctx.grid) == u64::from(f.block));
            match failed {
                Some(a) => format!(
                    "device-side assert `{}` failed at {at} in thread {} of block {}: the launch stops with cudaErrorAssert",
                    String::from_utf8_lossy(&a.message),
                    show(a.thread.map(u64::from)),
                    show(a.block.map(u64::from))
                ),
                None => format!(
                    "device-side assert failed at {at} in {who}: the launch stops with cudaErrorAssert"
                ),
            }
        }
        FaultKind::DivergentBarrier => {
            let why = match f.lane {
                Some(_) => format!("{who} did not arrive while other threads of its warp did"),
                None => format!(
                    "warp {} of block {block} waits there while other warps can never arrive",
                    f.warp
                ),
            };
            format!(
                "barrier at {at} reached by only part of the block: {why}; a GPU would hang or misbehave (the emulator stops the block)"
            )
        }
        FaultKind::BarrierCount { first, this } => {
            let words = |c: Option<u32>| match c {
                Some(c) => format!("a thread count of {c}"),
                None => "no thread count".to_string(),
            };
            format!(
                "named barrier at {at}: warp {} of block {block} arrived giving {} where the threads that arrived before it in this phase gave {}; every thread taking part in a barrier must give the same count (a GPU misbehaves; the emulator stops the block)",
                f.warp,
                words(this),
                words(first)
            )
        }
        FaultKind::GridDeadlock => format!(
            "grid-wide barrier (grid.sync()) at {at}: block {block} waits for blocks that finished without reaching it or wait elsewhere, so the grid can never pass it: a GPU would hang"
        ),
        FaultKind::NotResident { per_sm, sms } => format!(
            "block {block} waits at {at} for other blocks through global memory (a spin loop, as a grid barrier made by hand polls), but the GPU holds only {} blocks of this kernel at once ({per_sm} per SM on {sms} SMs) and the grid has {}: the blocks it waits for cannot start before the resident ones finish, so the GPU would never finish this launch either (it hangs); the emulator stops it as the launch timing out (cudaErrorLaunchTimeout). A grid barrier needs a grid that fits at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs) or cudaLaunchCooperativeKernel",
            u64::from(per_sm) * u64::from(sms),
            u64::from(ctx.grid[0]) * u64::from(ctx.grid[1]) * u64::from(ctx.grid[2])
        ),
        FaultKind::ClusterDeadlock => {
            // the mbarrier the reported warp waits on, as it stood
            let on = f.mbar.map_or(String::new(), |m| {
                format!(
                    " (warp {} waits on the mbarrier at shared offset {:#x} for a phase of parity {} to complete; its current phase, of parity {}, has {} of {} arrivals pending and a tx-count of {} bytes)",
                    f.warp,
                    m.offset,
                    m.parity,
                    m.phase,
                    m.pending,
                    m.expected,
                    m.tx
                )
            });
            format!(
                "thread-block cluster at {at}: block {block} and the rest of its cluster wait (at barrier.cluster.wait, on an mbarrier or polling memory) for what no block of the cluster will do{on}, so the cluster can never go on: a GPU would hang"
            )
        }
        FaultKind::TensorMap { why } => format!(
            "tensor memory access at {at} in {who}: {}: the GPU stops the launch",
            why.describe()
        ),
        FaultKind::StackOverflow => format!(
            "calls of recursive functions nested more than {} deep at {at} ({who}): a GPU's call stack (cudaLimitStackSize) would overflow, and the launch stops",
            warpscope_emu::MAX_CALL_DEPTH
        ),
        FaultKind::FellOffEnd => format!(
            "execution runs past the kernel's last instruction at {at} ({who}): a GPU stops the launch with an illegal-instruction error"
        ),
        FaultKind::InstructionLimit => format!(
            "block {block} stopped at {at} after {} warp instructions (--max-instructions): a loop that never ends, a wait for other blocks (a kernel with grid.sync() needs --cooperative), or a limit set too low",
            ctx.max_instructions
        ),
        other => format!("{other:?} at {at} ({who})"),
    }
}

fn linear(b: [u32; 3], grid: [u32; 3]) -> u64 {
    u64::from(b[0]) + u64::from(grid[0]) * (u64::from(b[1]) + u64::from(grid[1]) * u64::from(b[2]))
}

/// The parameter names of kernel `name` (its plain name, no template arguments or namespace) in a
/// CUDA source, when one `__global__` function of that name with `count` parameters is found; the
/// names a person gave them, for messages (`argument 0 `out``).
pub fn param_names(source: &str, name: &str, count: usize) -> Vec<String> {
    let base = name.rsplit("::").next().unwrap_or(name);
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(i) = rest.find("__global__") {
        rest = &rest[i + "__global__".len()..];
        // the declaration's head: up to its body or its `;`
        let head_end = rest.find(['{', ';']).unwrap_or(rest.len());
        let head = &rest[..head_end];
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        let open = head.match_indices(base).find_map(|(j, _)| {
            let before = head[..j].chars().next_back();
            let after = head[j + base.len()..].trim_start();
            (before.is_none_or(|c| !ident(c)) && after.starts_with('(')).then(|| head.len() - after.len())
        });
        let Some(open) = open else {
            continue;
        };
        let mut depth = 0i32;
        let mut end = None;
        for (j, c) in rest[open..].char_indices() {
            match c {
                '(' | '<' | '[' => depth += 1,
                ')' | '>' | ']' => {
                    depth -= 1;
                    if depth == 0 && c == ')' {
                        end = Some(open + j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            break;
        };
        let list = &rest[open + 1..end];
        let mut params = Vec::new();
        let mut depth = 0i32;
        let mut cur = String::new();
        for c in list.chars() {
            match c {
                '(' | '<' | '[' => depth += 1,
                ')' | '>' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    params.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(c);
        }
        if !cur.trim().is_empty() {
            params.push(cur);
        }
        let names: Vec<String> = params
            .iter()
            .map(|p| {
                let p = p.split('=').next().unwrap_or(p);
                let p = p.split('[').next().unwrap_or(p).trim_end();
                let id: String = p
                    .chars()
                    .rev()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                // a parameter with a type only (`int*`) has no name
                let keyword = matches!(
                    id.as_str(),
                    "int"
                        | "float"
                        | "double"
                        | "char"
                        | "short"
                        | "long"
                        | "unsigned"
                        | "bool"
                        | "void"
                        | "size_t"
                );
                if id.is_empty() || keyword || id.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                    String::new()
                } else {
                    id
                }
            })
            .collect();
        if names.len() == count {
            found.push(names);
        }
        rest = &rest[end..];
    }
    if found.len() == 1 {
        found.pop().unwrap_or_default()
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_names_from_the_source() {
        let src = "template <int N>\n__global__ void __launch_bounds__(256) blockSum(const float *__restrict__ in, float *out, int n = 3)\n{ }\n__global__ void other(int) {}\n";
        assert_eq!(param_names(src, "blockSum", 3), ["in", "out", "n"]);
        assert_eq!(param_names(src, "other", 1), [""]);
        assert!(param_names(src, "blockSum", 2).is_empty(), "the count must match");
        assert!(param_names(src, "missing", 1).is_empty());
        let two = "__global__ void k(int *a) {}\n__global__ void k(float *b) {}\n";
        assert!(param_names(two, "k", 1).is_empty(), "overloads: no guess");
        assert_eq!(
            param_names("__global__ void k(float (*m)[4], int s[8])", "k", 2),
            ["", "s"]
        );
    }

    #[test]
    fn a_generic_address_in_a_window_is_shown_as_the_offset_in_its_space() {
        use warpscope_emu::mem::{LOCAL_WINDOW, SHARED_WINDOW};
        // a generic `atom.add` one past a 1,056-byte shared array (`-G` code calls atomicAdd
        // through a generic pointer): the offset, not the window's address, is what is outside
        assert_eq!(
            window_offset("shared", SHARED_WINDOW + 0x420, SHARED_WINDOW),
            "shared offset 0x420 (generic address 0x1007f0000000420)"
        );
        assert_eq!(
            window_offset("shared", 0x420, SHARED_WINDOW),
            "shared offset 0x420"
        );
        assert_eq!(
            window_offset("local", LOCAL_WINDOW + 8, LOCAL_WINDOW),
            "local offset 0x8 (generic address 0x1007e0000000008)"
        );
    }

    #[test]
    fn buffers_as_the_emulator_lays_them_out() {
        let b = launch_buffers(&[Arg::Buffer(vec![0; 10]), Arg::I32(3), Arg::Buffer(vec![0; 300])]);
        assert_eq!(
            b,
            [
                Buffer {
                    arg: 0,
                    base: BUFFER_BASE,
                    size: 10
                },
                Buffer {
                    arg: 2,
                    base: BUFFER_BASE + 512,
                    size: 300
                },
            ]
        );
    }
}
