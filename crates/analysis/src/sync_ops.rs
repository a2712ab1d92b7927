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
}

/// The ordering role of each instruction of a program, by pc.
#[derive(Clone, Debug, Default)]
pub struct SyncOps {
    /// The first pc `ops` covers.
    base: u32,
    ops: Vec<PcSync>,
    /// Some instruction fences, acquires or releases.
    any_sync: bool,
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
    let mut s = PcSync::default();
    match head {
        "membar" => s.fence = scope,
        "fence" if !has("proxy") && !has("mbarrier_init") => s.fence = scope,
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
        let ops: Vec<PcSync> = program.info[start..end]
            .iter()
            .map(|i| classify(&i.text))
            .collect();
        let any_sync = ops.iter().any(|o| o.fence + o.acquire + o.release > 0);
        SyncOps {
            base: start as u32,
            ops,
            any_sync,
            masks: crate::warp_sync::WarpCollectives::of_range(program, start as u32, end as u32),
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
