//! What each instruction of a kernel does for ordering accesses, read off its PTX text: fences,
//! release and acquire operations, strong accesses and their scopes, synchronising warp
//! collectives. Shared by the global checker ([`crate::global_races`]), which follows them
//! between and within blocks, and the shared-memory checker ([`crate::hazards`]), which follows
//! them within a block.

pub(crate) const CTA: u8 = 1;
pub(crate) const CLUSTER: u8 = 2;
pub(crate) const GPU: u8 = 3;

/// What one instruction does for ordering (read off its PTX text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PcSync {
    /// A fence: its scope (0: none).
    pub(crate) fence: u8,
    /// The fence is sequentially consistent (`fence.sc`, `membar`: CUDA's `__threadfence()`), not
    /// `fence.acq_rel`: the memory model puts all of them in one total order (Fence-SC order).
    pub(crate) fence_sc: bool,
    /// An acquire operation's scope.
    pub(crate) acquire: u8,
    /// A release operation's scope.
    pub(crate) release: u8,
    /// A strong access's scope (0: weak).
    pub(crate) strong: u8,
    /// A warp collective that synchronises its lanes.
    pub(crate) warp_sync: bool,
    /// `barrier.cluster.wait`.
    pub(crate) cwait: bool,
    /// `barrier.cluster.arrive.relaxed`.
    pub(crate) crelaxed: bool,
    /// A read-modify-write atomic that acquires what it reads (at its scope): `.acquire` or
    /// `.acq_rel`, or no `.sem` at all (a CUDA `atomicAdd()`, taken as acquiring as the CUDA
    /// Programming Guide's `__threadfence()` example relies on it); not `.relaxed` or `.release`
    /// ones, nor `red` (which reads nothing back).
    pub(crate) rmw_acquires: bool,
    /// A plain load that only seeds a compare-and-swap loop on its address ([`cas_seed_loads`]):
    /// taken as an atomic read.
    pub(crate) cas_seed: bool,
    /// Elements of a vector access (`.v2`, `.v4`, `.v8`; 0: not a vector): the memory model takes a
    /// vector access as one access per element, so strong accesses overlap completely only when
    /// their elements have one size.
    pub(crate) vec: u8,
    /// An mbarrier arrival (`mbarrier.arrive*`, `cp.async.mbarrier.arrive`: a release at `.cta`
    /// scope or wider) or wait (`mbarrier.test_wait` / `try_wait`: an acquire when it sees the
    /// phase complete): `cuda::barrier` and `cuda::pipeline` of a block synchronise through them.
    pub(crate) mbar: bool,
}

/// The ordering role of each instruction of a program, by pc.
#[derive(Clone, Debug, Default)]
pub struct SyncOps {
    /// The first pc `ops` covers.
    base: u32,
    ops: Vec<PcSync>,
    /// Some instruction fences, acquires or releases.
    any_sync: bool,
    /// Some instruction is a sequentially consistent fence of `.gpu` scope or wider.
    sc_gpu: bool,
    /// The member masks of the warp synchronisations (see [`crate::warp_sync`]).
    masks: crate::warp_sync::WarpCollectives,
}

pub(crate) fn classify(text: &str) -> PcSync {
    let (head, mods) = crate::ptx_text::opcode(text);
    let has = |m: &str| mods.contains(&m);
    let scope = if has("cta") {
        CTA
    } else if has("cluster") {
        CLUSTER
    } else {
        GPU
    };
    let mut s = PcSync {
        vec: if has("v8") {
            8
        } else if has("v4") {
            4
        } else if has("v2") {
            2
        } else {
            0
        },
        ..PcSync::default()
    };
    match head {
        "membar" => {
            s.fence = scope;
            s.fence_sc = true;
        }
        "fence" if !has("proxy") && !has("mbarrier_init") => {
            s.fence = scope;
            s.fence_sc = has("sc");
        }
        "ld" | "ldu" => {
            if has("acquire") {
                s.acquire = scope;
                s.strong = scope;
            } else if has("relaxed") {
                s.strong = scope;
            } else if has("volatile") {
                s.strong = GPU;
            }
        }
        "st" => {
            if has("release") {
                s.release = scope;
                s.strong = scope;
            } else if has("relaxed") {
                s.strong = scope;
            } else if has("volatile") {
                s.strong = GPU;
            }
        }
        "atom" | "red" => {
            s.strong = scope;
            s.rmw_acquires = head == "atom" && !has("relaxed") && !has("release");
            if has("acquire") || has("acq_rel") {
                s.acquire = scope;
            }
            if has("release") || has("acq_rel") {
                s.release = scope;
            }
        }
        "shfl" | "vote" | "match" | "redux" => s.warp_sync = has("sync"),
        "mbarrier" => {
            s.mbar = has("arrive") || has("arrive_drop") || has("test_wait") || has("try_wait");
        }
        "cp" => s.mbar = has("async") && has("mbarrier") && has("arrive"),
        "barrier" if has("cluster") => {
            s.cwait = has("wait");
            s.crelaxed = has("arrive") && has("relaxed");
        }
        _ => {}
    }
    s
}

impl SyncOps {
    /// The roles of `program`'s instructions.
    pub fn of(program: &warpscope_ptx::Program) -> SyncOps {
        SyncOps::of_range(program, 0, program.info.len() as u32)
    }

    /// The roles of the instructions `start..end` of `program` (one kernel's: `Kernel::entry..end`).
    pub fn of_range(program: &warpscope_ptx::Program, start: u32, end: u32) -> SyncOps {
        let end = (end as usize).min(program.info.len());
        let start = (start as usize).min(end);
        let mut ops: Vec<PcSync> = program.info[start..end]
            .iter()
            .map(|i| classify(&i.text))
            .collect();
        let texts: Vec<&str> = program.info[start..end].iter().map(|i| i.text.as_str()).collect();
        for (ld, scope) in cas_seed_loads(&texts) {
            ops[ld].strong = ops[ld].strong.max(scope);
            ops[ld].cas_seed = true;
        }
        let any_sync = ops.iter().any(|o| o.fence + o.acquire + o.release > 0 || o.mbar);
        let sc_gpu = ops.iter().any(|o| o.fence_sc && o.fence >= GPU);
        SyncOps {
            base: start as u32,
            ops,
            any_sync,
            sc_gpu,
            masks: crate::warp_sync::WarpCollectives::of_range(program, start as u32, end as u32),
        }
    }

    /// The roles of instructions given by their text, pc 0 on (for tests of the checkers).
    #[cfg(test)]
    pub(crate) fn of_texts(texts: &[&str]) -> SyncOps {
        let ops: Vec<PcSync> = texts.iter().map(|t| classify(t)).collect();
        let any_sync = ops.iter().any(|o| o.fence + o.acquire + o.release > 0 || o.mbar);
        let sc_gpu = ops.iter().any(|o| o.fence_sc && o.fence >= GPU);
        SyncOps {
            base: 0,
            ops,
            any_sync,
            sc_gpu,
            masks: Default::default(),
        }
    }

    /// Whether the kernel has an instruction that may order accesses within a block beyond
    /// barriers and warp synchronisations, or make an access strong: a fence, a release or
    /// acquire operation, a strong access (`volatile`, `.relaxed`, an atomic). The shared-memory
    /// checker follows them only then ([`crate::hazards::HazardSink::with_sync_ops`]).
    pub fn orders_within_block(&self) -> bool {
        self.any_sync || self.ops.iter().any(|o| o.strong > 0)
    }

    /// Whether some instruction fences, acquires or releases.
    pub(crate) fn any_sync(&self) -> bool {
        self.any_sync
    }

    /// Whether some instruction is a sequentially consistent fence of `.gpu` scope or wider
    /// (`__threadfence()`).
    pub(crate) fn sc_gpu(&self) -> bool {
        self.sc_gpu
    }

    /// The member masks of the warp synchronisations.
    pub(crate) fn masks(&self) -> &crate::warp_sync::WarpCollectives {
        &self.masks
    }

    pub(crate) fn at(&self, pc: u32) -> PcSync {
        pc.checked_sub(self.base)
            .and_then(|i| self.ops.get(i as usize))
            .copied()
            .unwrap_or_default()
    }
}

/// Whether `op` is a variable's name (`_ZZ4kernE1s`, `counter`), not a register or a number.
fn is_symbol(op: &str) -> bool {
    op.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
}

/// The plain loads among `texts` (one kernel's instructions) that only seed a compare-and-swap
/// loop on the address they read, with the scope of that `atom.cas`: the CUDA Programming Guide's
/// `atomicAdd` for `double` (`old = *address; do { assumed = old; old = atomicCAS(address,
/// assumed, f(assumed)); } while (assumed != old);`) and every CAS loop built like it. The value
/// read is the loop's first guess, which the `atom.cas` compares with what memory holds and
/// retries on a mismatch: whatever the load returned, stale or torn, the outcome is that of an
/// atomic read. Such a load is taken as a relaxed (strong) read at the CAS's scope: it does not
/// race with atomics of other threads, and still races with their plain writes.
///
/// Recognised when the load's destination register, or a register `mov` copies it to, is the
/// compare operand of an `atom.cas` whose address is the load's (as written, `[%rd1+56]`, or
/// through a register set once by `add` of an immediate, `add.s64 %rd17, %rd1, 56; ...
/// [%rd17]`, or by `mov` of a variable's address, `mov.u32 %r7, s; ... [%r7]` against `[s]`)
/// and whose width is the load's. Loads that are `volatile`, `.relaxed`, `.acquire`,
/// vector loads and loads of other state spaces than global, shared or generic are left alone.
pub(crate) fn cas_seed_loads(texts: &[&str]) -> Vec<(usize, u8)> {
    use std::collections::HashMap;
    let has_cas = texts.iter().any(|t| {
        let (head, mods) = crate::ptx_text::opcode(t);
        head == "atom" && mods.contains(&"cas")
    });
    if !has_cas {
        return Vec::new();
    }
    // per register: how many instructions set it, and the last one's (base, offset) when it
    // is an `add` of an immediate or a `mov` of a variable's address
    type Def<'a> = (u32, Option<(&'a str, i64)>);
    let mut defs: HashMap<&str, Def<'_>> = HashMap::new();
    let mut movs: Vec<(&str, &str)> = Vec::new();
    for t in texts {
        let ops = crate::ptx_text::operands(t);
        let Some(&d) = ops.first() else { continue };
        if !d.starts_with('%') {
            continue;
        }
        let (head, _) = crate::ptx_text::opcode(t);
        let add = if head == "add" && ops.len() == 3 && ops[1].starts_with('%') {
            ops[2].parse::<i64>().ok().map(|n| (ops[1], n))
        } else if head == "mov" && ops.len() == 2 && is_symbol(ops[1]) {
            // the address of a variable (`mov.u32 %r7, s;`)
            Some((ops[1], 0))
        } else {
            None
        };
        let e = defs.entry(d).or_insert((0, None));
        e.0 += 1;
        e.1 = add;
        if head == "mov" && ops.len() == 2 && ops[1].starts_with('%') {
            movs.push((d, ops[1]));
        }
    }
    // an address operand as (base register, byte offset)
    let addr = |op: &str| -> Option<(String, i64)> {
        let inner = op.strip_prefix('[')?.strip_suffix(']')?.trim();
        let (base, off) = match inner.split_once('+') {
            Some((b, o)) => (b.trim(), o.trim().parse::<i64>().ok()?),
            None => (inner, 0),
        };
        if !base.starts_with('%') && !is_symbol(base) {
            return None;
        }
        match defs.get(base) {
            Some(&(1, Some((b, n)))) => Some((b.to_string(), off + n)),
            _ => Some((base.to_string(), off)),
        }
    };
    let width = |mods: &[&str]| -> Option<u32> {
        mods.iter().rev().find_map(|m| {
            let n = m.get(1..)?.parse::<u32>().ok()?;
            matches!(m.as_bytes()[0], b'b' | b'u' | b's' | b'f').then_some(n)
        })
    };
    let scope_of = |t: &str| classify(t).strong;
    // each CAS: (address, width, compare register, scope)
    let cas: Vec<((String, i64), u32, &str, u8)> = texts
        .iter()
        .filter_map(|t| {
            let (head, mods) = crate::ptx_text::opcode(t);
            if head != "atom" || !mods.contains(&"cas") {
                return None;
            }
            let ops = crate::ptx_text::operands(t);
            if ops.len() != 4 {
                return None;
            }
            Some((addr(ops[1])?, width(&mods)?, ops[2], scope_of(t)))
        })
        .collect();
    let mut out = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let (head, mods) = crate::ptx_text::opcode(t);
        if head != "ld"
            || mods.iter().any(|m| {
                matches!(
                    *m,
                    "volatile" | "relaxed" | "acquire" | "param" | "const" | "local"
                )
            })
            || mods.iter().any(|m| m.starts_with('v') && m.len() == 2)
        {
            continue;
        }
        let ops = crate::ptx_text::operands(t);
        if ops.len() != 2 || !ops[0].starts_with('%') {
            continue;
        }
        let (Some(a), Some(w)) = (addr(ops[1]), width(&mods)) else {
            continue;
        };
        // the registers the loaded value is copied to
        let mut seen: Vec<&str> = vec![ops[0]];
        loop {
            let before = seen.len();
            for &(d, s) in &movs {
                if seen.contains(&s) && !seen.contains(&d) {
                    seen.push(d);
                }
            }
            if seen.len() == before {
                break;
            }
        }
        if let Some(c) = cas.iter().find(|c| c.0 == a && c.1 == w && seen.contains(&c.2)) {
            out.push((i, c.3));
        }
    }
    out
}

#[cfg(test)]
mod cas_tests {
    use super::cas_seed_loads;

    #[test]
    fn a_load_seeding_a_cas_loop_on_its_address_is_found() {
        // nvcc's CUDA-guide atomicAdd(double) loop, the address through an `add` of 56
        let k = [
            "ld.global.u64 %rd18, [%rd1+56];",
            "add.s64 %rd17, %rd1, 56;",
            "atom.global.cas.b64 %rd4, [%rd17], %rd18, %rd18;",
            "setp.ne.s64 %p1, %rd4, %rd18;",
            "mov.u64 %rd18, %rd4;",
            "@%p1 bra $L__BB0_1;",
        ];
        assert_eq!(cas_seed_loads(&k), vec![(0, super::GPU)]);
        // the compare operand a copy of the loaded register
        let k = [
            "ld.u32 %r14, [%rd2];",
            "mov.u32 %r20, %r14;",
            "atom.cas.b32 %r4, [%rd2], %r20, %r8;",
        ];
        assert_eq!(cas_seed_loads(&k), vec![(0, super::GPU)]);
        // a shared variable: the load names it, the CAS a register holding its address
        let k = [
            "ld.shared.u32 %r10, [_ZZ4kernE1m];",
            "mov.u32 %r7, _ZZ4kernE1m;",
            "atom.shared.cas.b32 %r4, [%r7], %r10, %r6;",
        ];
        assert_eq!(cas_seed_loads(&k), vec![(0, super::GPU)]);
    }

    #[test]
    fn other_loads_are_not() {
        // another address, another width, the value not the compare operand, a volatile load
        let k = [
            "ld.global.u64 %rd18, [%rd1+48];",
            "ld.global.u32 %r1, [%rd1+56];",
            "ld.global.u64 %rd20, [%rd1+56];",
            "ld.volatile.global.u64 %rd21, [%rd1+56];",
            "add.s64 %rd17, %rd1, 56;",
            "atom.global.cas.b64 %rd4, [%rd17], %rd18, %rd20;",
            "atom.global.cas.b64 %rd5, [%rd17], %rd21, %rd20;",
        ];
        assert!(cas_seed_loads(&k).is_empty());
        // no CAS at all
        assert!(cas_seed_loads(&["ld.global.u32 %r1, [%rd1];"]).is_empty());
    }
}
