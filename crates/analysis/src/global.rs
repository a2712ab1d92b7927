//! Global-memory requests and sectors as Nsight Compute counts them, from warp-level accesses
//! (the PTX emulator's events, or the machine code's own accesses in [`crate::machine_flow`]).

use warpscope_emu::AccessOp;

/// Global-memory requests and 32-byte sectors per direction, as
/// `l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}` / `l1tex__t_sectors_...` count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlobalCounts {
    /// Load requests (warp instructions with an active lane).
    pub ld_requests: u64,
    /// Load sectors.
    pub ld_sectors: u64,
    /// Bytes the active lanes asked to load.
    pub ld_bytes: u64,
    /// Store requests.
    pub st_requests: u64,
    /// Store sectors.
    pub st_sectors: u64,
    /// Bytes the active lanes asked to store.
    pub st_bytes: u64,
}

impl GlobalCounts {
    /// Counts one warp-level global access.
    pub fn record(&mut self, op: AccessOp, width: u8, mask: u32, addrs: &[u64; 32]) {
        if mask == 0 {
            return;
        }
        let mut sectors = [0u64; 64];
        let mut n = 0;
        for (lane, &a) in addrs.iter().enumerate() {
            if mask & (1 << lane) == 0 {
                continue;
            }
            let last = (a + u64::from(width.max(1)) - 1) / 32;
            for s in a / 32..=last {
                if !sectors[..n].contains(&s) && n < sectors.len() {
                    sectors[n] = s;
                    n += 1;
                }
            }
        }
        let bytes = u64::from(mask.count_ones()) * u64::from(width);
        match op {
            AccessOp::Load => {
                self.ld_requests += 1;
                self.ld_sectors += n as u64;
                self.ld_bytes += bytes;
            }
            AccessOp::Store => {
                self.st_requests += 1;
                self.st_sectors += n as u64;
                self.st_bytes += bytes;
            }
            // atomics are neither (a cp.async's global read comes here as a `Load`)
            _ => {}
        }
    }

    /// Adds another block's counts.
    pub fn add(&mut self, o: &GlobalCounts) {
        self.ld_requests += o.ld_requests;
        self.ld_sectors += o.ld_sectors;
        self.ld_bytes += o.ld_bytes;
        self.st_requests += o.st_requests;
        self.st_sectors += o.st_sectors;
        self.st_bytes += o.st_bytes;
    }
}
