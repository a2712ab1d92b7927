//! Stream-ordered memory pools (`cudaMemPool_t`): the device's default pool, pools a program
//! creates, the device's current pool (what `cudaMallocAsync` allocates from), each pool's
//! attributes and the bytes its live allocations hold. Memory itself is the runtime's device
//! memory: an allocation from a pool is a device allocation, freed at once by `cudaFreeAsync`
//! (streams run in program order), so a pool reserves nothing beyond what is in use.

use std::collections::HashMap;

/// `cudaMemPoolAttr` values.
pub mod attr {
    /// `cudaMemPoolReuseFollowEventDependencies` (int).
    pub const REUSE_FOLLOW_EVENTS: i32 = 1;
    /// `cudaMemPoolReuseAllowOpportunistic` (int).
    pub const REUSE_OPPORTUNISTIC: i32 = 2;
    /// `cudaMemPoolReuseAllowInternalDependencies` (int).
    pub const REUSE_INTERNAL: i32 = 3;
    /// `cudaMemPoolAttrReleaseThreshold` (u64).
    pub const RELEASE_THRESHOLD: i32 = 4;
    /// `cudaMemPoolAttrReservedMemCurrent` (u64).
    pub const RESERVED_CURRENT: i32 = 5;
    /// `cudaMemPoolAttrReservedMemHigh` (u64).
    pub const RESERVED_HIGH: i32 = 6;
    /// `cudaMemPoolAttrUsedMemCurrent` (u64).
    pub const USED_CURRENT: i32 = 7;
    /// `cudaMemPoolAttrUsedMemHigh` (u64).
    pub const USED_HIGH: i32 = 8;
}

/// One pool.
#[derive(Clone, Debug)]
pub struct Pool {
    /// The three reuse policies (1: allowed), as `attr::REUSE_*` - 1 index them.
    pub reuse: [i32; 3],
    /// `cudaMemPoolAttrReleaseThreshold`.
    pub release_threshold: u64,
    /// Bytes of live allocations.
    pub used: u64,
    /// The most `used` has been since creation or the last reset.
    pub used_high: u64,
}

impl Default for Pool {
    fn default() -> Pool {
        Pool {
            reuse: [1, 1, 1],
            release_threshold: 0,
            used: 0,
            used_high: 0,
        }
    }
}

/// A value of an attribute: `int` or `cuuint64_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The reuse policies.
    Int(i32),
    /// The sizes.
    U64(u64),
}

/// Every pool of the one device.
#[derive(Debug, Default)]
pub struct Pools {
    pools: HashMap<usize, Pool>,
    /// The default pool's handle, once asked for.
    default: Option<usize>,
    /// The device's current pool (`None`: the default pool).
    current: Option<usize>,
    /// Live allocations from pools: address → (pool, bytes).
    allocs: HashMap<u64, (usize, u64)>,
}

impl Pools {
    /// The default pool's handle, made with `handle` the first time.
    pub fn default_pool(&mut self, handle: impl FnOnce() -> usize) -> usize {
        if let Some(h) = self.default {
            return h;
        }
        let h = handle();
        self.pools.insert(h, Pool::default());
        self.default = Some(h);
        h
    }

    /// Whether the default pool has been made.
    pub fn has_default(&self) -> bool {
        self.default.is_some()
    }

    /// The current pool's handle.
    pub fn current(&mut self, handle: impl FnOnce() -> usize) -> usize {
        match self.current {
            Some(h) => h,
            None => self.default_pool(handle),
        }
    }

    /// Makes `h` the current pool; `false` when it is no pool.
    pub fn set_current(&mut self, h: usize) -> bool {
        if !self.pools.contains_key(&h) {
            return false;
        }
        self.current = Some(h);
        true
    }

    /// A new pool.
    pub fn create(&mut self, h: usize) {
        self.pools.insert(h, Pool::default());
    }

    /// Destroys pool `h` (not the default pool); `false` when it is none. The current pool
    /// becomes the default one again if it was `h`.
    pub fn destroy(&mut self, h: usize) -> bool {
        if Some(h) == self.default || self.pools.remove(&h).is_none() {
            return false;
        }
        if self.current == Some(h) {
            self.current = None;
        }
        true
    }

    /// Whether `h` is a pool.
    pub fn contains(&self, h: usize) -> bool {
        self.pools.contains_key(&h)
    }

    /// Records an allocation of `bytes` at `addr` from pool `h`.
    pub fn allocated(&mut self, h: usize, addr: u64, bytes: u64) {
        if let Some(p) = self.pools.get_mut(&h) {
            p.used += bytes;
            p.used_high = p.used_high.max(p.used);
            self.allocs.insert(addr, (h, bytes));
        }
    }

    /// Forgets the allocation at `addr`, if it came from a pool.
    pub fn freed(&mut self, addr: u64) {
        if let Some((h, bytes)) = self.allocs.remove(&addr)
            && let Some(p) = self.pools.get_mut(&h)
        {
            p.used -= bytes;
        }
    }

    /// Attribute `a` of pool `h`; `None` for an invalid pool or attribute. Reserved memory is
    /// the memory in use (the runtime keeps none in reserve).
    pub fn get(&self, h: usize, a: i32) -> Option<Value> {
        let p = self.pools.get(&h)?;
        Some(match a {
            attr::REUSE_FOLLOW_EVENTS..=attr::REUSE_INTERNAL => Value::Int(p.reuse[(a - 1) as usize]),
            attr::RELEASE_THRESHOLD => Value::U64(p.release_threshold),
            attr::RESERVED_CURRENT | attr::USED_CURRENT => Value::U64(p.used),
            attr::RESERVED_HIGH | attr::USED_HIGH => Value::U64(p.used_high),
            _ => return None,
        })
    }

    /// Sets attribute `a` of pool `h` to `v` (the high-water marks only to 0, a reset); `false`
    /// for an invalid pool, attribute or value.
    pub fn set(&mut self, h: usize, a: i32, v: Value) -> bool {
        let Some(p) = self.pools.get_mut(&h) else {
            return false;
        };
        match (a, v) {
            (attr::REUSE_FOLLOW_EVENTS..=attr::REUSE_INTERNAL, Value::Int(x)) => {
                p.reuse[(a - 1) as usize] = i32::from(x != 0)
            }
            (attr::RELEASE_THRESHOLD, Value::U64(x)) => p.release_threshold = x,
            (attr::RESERVED_HIGH | attr::USED_HIGH, Value::U64(0)) => p.used_high = p.used,
            _ => return false,
        }
        true
    }

    /// Whether attribute `a` takes an `int` (else a `cuuint64_t`); `None` for no attribute.
    pub fn is_int(a: i32) -> Option<bool> {
        match a {
            attr::REUSE_FOLLOW_EVENTS..=attr::REUSE_INTERNAL => Some(true),
            attr::RELEASE_THRESHOLD..=attr::USED_HIGH => Some(false),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_track_their_live_bytes_and_attributes() {
        let mut next = 100;
        let mut ps = Pools::default();
        let d = ps.default_pool(|| {
            next += 16;
            next
        });
        assert_eq!(ps.current(|| unreachable!()), d);
        assert_eq!(ps.get(d, attr::RELEASE_THRESHOLD), Some(Value::U64(0)));
        assert_eq!(ps.get(d, attr::REUSE_OPPORTUNISTIC), Some(Value::Int(1)));
        ps.allocated(d, 0x1000, 256);
        ps.allocated(d, 0x2000, 1024);
        ps.freed(0x1000);
        assert_eq!(ps.get(d, attr::USED_CURRENT), Some(Value::U64(1024)));
        assert_eq!(ps.get(d, attr::USED_HIGH), Some(Value::U64(1280)));
        assert!(!ps.set(d, attr::USED_HIGH, Value::U64(5)));
        assert!(ps.set(d, attr::USED_HIGH, Value::U64(0)));
        assert_eq!(ps.get(d, attr::USED_HIGH), Some(Value::U64(1024)));
        assert!(ps.set(d, attr::RELEASE_THRESHOLD, Value::U64(u64::MAX)));
        assert_eq!(ps.get(d, attr::RELEASE_THRESHOLD), Some(Value::U64(u64::MAX)));
        // a created pool becomes current, and the default again once it is destroyed
        ps.create(200);
        assert!(ps.set_current(200));
        assert_eq!(ps.current(|| unreachable!()), 200);
        assert!(!ps.destroy(d));
        assert!(ps.destroy(200));
        assert_eq!(ps.current(|| unreachable!()), d);
        assert_eq!(ps.get(200, attr::USED_CURRENT), None);
        assert_eq!(ps.get(d, 99), None);
    }
}
