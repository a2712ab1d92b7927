//! Shared-memory layout changes ("what if this array were padded, swizzled or permuted?"): a remap moves
//! every shared byte address of the original layout to its place in the changed layout. The kernel
//! still computes original addresses; the emulator moves each access (data and events), so results
//! are unchanged (the remap is a bijection into a bigger window) while the events show the
//! addresses the hardware would see with the changed layout.

use warpscope_ptx::Kernel;

/// One layout change of a shared array occupying `[base, base + len)` of the original window.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SharedRemap {
    /// Rows of `row_bytes` get `pad_bytes` of padding each:
    /// `a' = base + (a - base) + ((a - base) / row_bytes) * pad_bytes`. Everything after the array
    /// moves by the array's growth, `len / row_bytes * pad_bytes` rounded up to the largest
    /// alignment of the shared arrays that follow it (the next array's alignment in the usual
    /// layouts), and the window grows by as much.
    Pad {
        /// First byte of the array (original layout).
        base: u32,
        /// Bytes of the array.
        len: u32,
        /// Bytes per row (> 0).
        row_bytes: u32,
        /// Padding bytes added after each row.
        pad_bytes: u32,
    },
    /// CuTe `Swizzle<B, M, S>` on the byte offset `o = a - base`:
    /// `o' = o ^ ((o >> S) & (((1 << B) - 1) << M))` with `B = bits`, `M = base_shift`,
    /// `S = shift`. Needs `shift >= bits` (a bijection) and `len` a multiple of `1 << (M + B)`
    /// (stays inside the array).
    Swizzle {
        /// First byte of the array (original layout).
        base: u32,
        /// Bytes of the array.
        len: u32,
        /// `B`: number of bits XORed.
        bits: u8,
        /// `M`: lowest bit changed.
        base_shift: u8,
        /// `S`: distance from the changed bits to the bits that change them.
        shift: u8,
    },
    /// A permutation of `unit`-byte units: the unit at byte offset `u * unit` of the array moves
    /// to `table[u] * unit` (units past the table stay). `table` must be a permutation of
    /// `0..table.len()` and `table.len() * unit <= len`. Every access must lie inside one unit
    /// (the analysis picks the unit as the widest access), since only its first byte is mapped.
    Permute {
        /// First byte of the array (original layout).
        base: u32,
        /// Bytes of the array.
        len: u32,
        /// Bytes per unit (> 0).
        unit: u32,
        /// New unit index of each unit.
        table: std::sync::Arc<[u32]>,
    },
}

/// Layout changes of the asynchronous proxy, for re-emulating the fix advisor's proposals: the
/// tensor core and the TMA address the changed layout directly (a [`SharedRemap`] moves the
/// threads' accesses to it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AsyncLayout {
    /// `(old, new)`: a `wgmma.mma_async` matrix descriptor equal to `old` reads as `new`, and its
    /// operands are read at the descriptor's addresses in the changed window (not moved).
    pub descs: Vec<(u64, u64)>,
    /// `(dst, swizzle)`: a tiled TMA load into shared window offset `dst` (original layout) uses
    /// this `CUtensorMapSwizzle` instead of its map's, and writes the changed window directly.
    pub tma_swizzle: Vec<(u64, u8)>,
}

impl AsyncLayout {
    /// Nothing changed.
    pub fn is_empty(&self) -> bool {
        self.descs.is_empty() && self.tma_swizzle.is_empty()
    }
}

impl SharedRemap {
    fn window(&self) -> (u32, u32) {
        match *self {
            SharedRemap::Pad { base, len, .. }
            | SharedRemap::Swizzle { base, len, .. }
            | SharedRemap::Permute { base, len, .. } => (base, len),
        }
    }
}

/// The address map of one launch: identity when there is no remap.
#[derive(Clone, Debug)]
pub(crate) struct SmemMap {
    items: Vec<(SharedRemap, u32)>, // remap, new base
    pads: Vec<(u32, u32)>,          // (end of a padded array, its growth), ascending
    /// Bytes of the remapped window.
    pub size: u32,
    /// The asynchronous proxy's changes.
    pub(crate) layout: AsyncLayout,
}

impl SmemMap {
    /// Checks the remaps against the kernel's layout and a window of `smem_size` bytes.
    pub(crate) fn new(remaps: &[SharedRemap], k: &Kernel, smem_size: u32) -> Result<SmemMap, String> {
        let mut sorted: Vec<SharedRemap> = remaps.to_vec();
        sorted.sort_by_key(|r| r.window().0);
        let mut pads = Vec::new();
        let mut prev_end = 0u64;
        for (i, r) in sorted.iter().enumerate() {
            let (base, len) = r.window();
            let end = base as u64 + len as u64;
            if len == 0 || end > smem_size as u64 {
                return Err(format!(
                    "remap {r:?}: window [{base}, {end}) is empty or outside the {smem_size}-byte shared window"
                ));
            }
            if i > 0 && (base as u64) < prev_end {
                return Err(format!("remap {r:?} overlaps another remap"));
            }
            prev_end = end;
            match r {
                &SharedRemap::Pad {
                    row_bytes, pad_bytes, ..
                } => {
                    if row_bytes == 0 {
                        return Err(format!("remap {r:?}: row_bytes must be > 0"));
                    }
                    let align = k
                        .shared
                        .iter()
                        .filter(|v| v.offset as u64 >= end || (v.dynamic && k.dyn_smem_base as u64 >= end))
                        .map(|v| v.align.max(1) as u64)
                        .max()
                        .unwrap_or(1);
                    let raw = (len / row_bytes) as u64 * pad_bytes as u64;
                    let growth = raw.div_ceil(align) * align;
                    if growth > u32::MAX as u64 / 2 {
                        return Err(format!("remap {r:?}: padding too large"));
                    }
                    pads.push((end as u32, growth as u32));
                }
                &SharedRemap::Swizzle {
                    bits,
                    base_shift,
                    shift,
                    ..
                } => {
                    if shift < bits || base_shift as u32 + bits as u32 + shift as u32 > 31 {
                        return Err(format!(
                            "remap {r:?}: needs shift >= bits and base_shift + bits + shift <= 31"
                        ));
                    }
                    let span = 1u32 << (base_shift + bits);
                    if len % span != 0 {
                        return Err(format!(
                            "remap {r:?}: len must be a multiple of {span} (1 << (base_shift + bits))"
                        ));
                    }
                }
                SharedRemap::Permute { unit, table, .. } => {
                    if *unit == 0 || table.len() as u64 * *unit as u64 > len as u64 {
                        return Err(format!(
                            "permutation of {}-byte units: unit must be > 0 and {} units must fit in {len} bytes",
                            unit,
                            table.len()
                        ));
                    }
                    let mut seen = vec![false; table.len()];
                    for &t in table.iter() {
                        match seen.get_mut(t as usize) {
                            Some(s) if !*s => *s = true,
                            _ => {
                                return Err(format!(
                                    "permutation of {} units: entry {t} is out of range or repeated",
                                    table.len()
                                ));
                            }
                        }
                    }
                }
            }
        }
        let total: u64 = pads.iter().map(|p| p.1 as u64).sum();
        if smem_size as u64 + total > u32::MAX as u64 / 2 {
            return Err("remapped shared window too large".into());
        }
        let mut m = SmemMap {
            items: Vec::new(),
            pads,
            size: smem_size + total as u32,
            layout: AsyncLayout::default(),
        };
        m.items = sorted
            .iter()
            .map(|r| {
                let base = r.window().0;
                (r.clone(), base + m.shift_before(base as u64) as u32)
            })
            .collect();
        Ok(m)
    }

    /// No remap: addresses are unchanged.
    #[inline(always)]
    pub(crate) fn is_identity(&self) -> bool {
        self.items.is_empty()
    }

    /// The descriptor a `wgmma.mma_async` reads instead of `d`, if any.
    pub(crate) fn desc(&self, d: u64) -> Option<u64> {
        self.layout.descs.iter().find(|x| x.0 == d).map(|x| x.1)
    }

    /// The swizzle a tiled TMA load into `dst` uses instead of its map's, if any.
    pub(crate) fn tma_swizzle(&self, dst: u64) -> Option<u8> {
        self.layout.tma_swizzle.iter().find(|x| x.0 == dst).map(|x| x.1)
    }

    fn shift_before(&self, a: u64) -> u64 {
        self.pads
            .iter()
            .take_while(|p| p.0 as u64 <= a)
            .map(|p| p.1 as u64)
            .sum()
    }

    /// The remapped address of original shared byte address `a`.
    pub(crate) fn map(&self, a: u64) -> u64 {
        for (r, new_base) in &self.items {
            let (base, len) = r.window();
            if a >= base as u64 && a < base as u64 + len as u64 {
                let o = a - base as u64;
                let o2 = match *r {
                    SharedRemap::Pad {
                        row_bytes, pad_bytes, ..
                    } => o + (o / row_bytes as u64) * pad_bytes as u64,
                    SharedRemap::Swizzle {
                        bits,
                        base_shift,
                        shift,
                        ..
                    } => o ^ ((o >> shift) & ((((1u64) << bits) - 1) << base_shift)),
                    SharedRemap::Permute { unit, ref table, .. } => {
                        let (u, within) = (o / unit as u64, o % unit as u64);
                        match table.get(u as usize) {
                            Some(&t) => t as u64 * unit as u64 + within,
                            None => o,
                        }
                    }
                };
                return *new_base as u64 + o2;
            }
        }
        a + self.shift_before(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(vars: &[(u32, u32, u32)]) -> Kernel {
        let src = ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n";
        let mut k = warpscope_ptx::compile(src).unwrap().kernels.remove(0);
        k.shared = vars
            .iter()
            .enumerate()
            .map(|(i, &(offset, size, align))| warpscope_ptx::SharedVar {
                name: format!("v{i}"),
                offset,
                size,
                align,
                dynamic: false,
            })
            .collect();
        k
    }

    #[test]
    fn pad_moves_rows_and_later_arrays_and_is_a_bijection() {
        // a[32][32] floats at 0, b (align 16) at 4096
        let k = kernel(&[(0, 4096, 4), (4096, 64, 16)]);
        let pad = SharedRemap::Pad {
            base: 0,
            len: 4096,
            row_bytes: 128,
            pad_bytes: 4,
        };
        let m = SmemMap::new(&[pad], &k, 4160).unwrap();
        assert_eq!(m.map(0), 0);
        assert_eq!(m.map(128), 132); // row 1 starts after one word of padding
        assert_eq!(m.map(4 * 33), 4 * 34);
        // growth 32 * 4 = 128, already a multiple of 16
        assert_eq!(m.map(4096), 4096 + 128);
        assert_eq!(m.size, 4160 + 128);
        let mut seen = std::collections::HashSet::new();
        for a in 0..4160u64 {
            let b = m.map(a);
            assert!(b < m.size as u64);
            assert!(seen.insert(b), "{a} collides");
        }
    }

    #[test]
    fn growth_rounds_to_the_following_alignment() {
        let k = kernel(&[(0, 96, 4), (96, 32, 32)]);
        let pad = SharedRemap::Pad {
            base: 0,
            len: 96,
            row_bytes: 32,
            pad_bytes: 4,
        };
        let m = SmemMap::new(&[pad], &k, 128).unwrap();
        assert_eq!(m.map(96), 96 + 32); // 3 rows * 4 = 12, rounded up to 32
    }

    #[test]
    fn swizzle_xors_the_row_into_the_column_and_is_a_bijection() {
        let k = kernel(&[(0, 4096, 4)]);
        // Swizzle<3, 4, 3>: 16-byte chunks, 8 of them per 128-byte row, XOR with the row index
        let sw = SharedRemap::Swizzle {
            base: 0,
            len: 4096,
            bits: 3,
            base_shift: 4,
            shift: 3,
        };
        let m = SmemMap::new(&[sw], &k, 4096).unwrap();
        assert_eq!(m.size, 4096);
        assert_eq!(m.map(0), 0);
        assert_eq!(m.map(128), 128 + 16); // row 1, chunk 0 -> chunk 1
        assert_eq!(m.map(128 * 3 + 16 + 4), 128 * 3 + 2 * 16 + 4); // row 3, chunk 1 -> chunk 2
        let mut seen = std::collections::HashSet::new();
        for a in 0..4096u64 {
            assert!(seen.insert(m.map(a)));
        }
    }

    #[test]
    fn permute_moves_whole_units_and_checks_the_table() {
        let k = kernel(&[(0, 64, 4), (64, 64, 4)]);
        // 4-byte units of the second array: 0 <-> 3, 1 and 2 stay; units 4.. are not in the table.
        let p = SharedRemap::Permute {
            base: 64,
            len: 64,
            unit: 4,
            table: vec![3, 1, 2, 0].into(),
        };
        let m = SmemMap::new(std::slice::from_ref(&p), &k, 128).unwrap();
        assert_eq!(m.size, 128);
        assert_eq!(m.map(0), 0, "the first array is untouched");
        assert_eq!(m.map(64), 64 + 12);
        assert_eq!(m.map(64 + 13), 64 + 1);
        assert_eq!(m.map(64 + 4), 64 + 4);
        assert_eq!(m.map(64 + 20), 64 + 20);
        let mut seen = std::collections::HashSet::new();
        for a in 0..128u64 {
            assert!(seen.insert(m.map(a)), "{a} collides");
        }
        for bad in [vec![0, 0, 1, 2], vec![0, 1, 2, 4], (0..17).collect()] {
            let r = SharedRemap::Permute {
                base: 64,
                len: 64,
                unit: 4,
                table: bad.into(),
            };
            assert!(SmemMap::new(&[r], &k, 128).is_err());
        }
    }

    #[test]
    fn bad_remaps_are_errors() {
        let k = kernel(&[(0, 256, 4)]);
        let bad = [
            SharedRemap::Pad {
                base: 0,
                len: 512,
                row_bytes: 32,
                pad_bytes: 4,
            },
            SharedRemap::Pad {
                base: 0,
                len: 256,
                row_bytes: 0,
                pad_bytes: 4,
            },
            SharedRemap::Swizzle {
                base: 0,
                len: 256,
                bits: 3,
                base_shift: 4,
                shift: 2,
            },
            SharedRemap::Swizzle {
                base: 0,
                len: 100,
                bits: 2,
                base_shift: 4,
                shift: 3,
            },
        ];
        for r in bad {
            assert!(SmemMap::new(std::slice::from_ref(&r), &k, 256).is_err(), "{r:?}");
        }
        let two = [
            SharedRemap::Pad {
                base: 0,
                len: 128,
                row_bytes: 32,
                pad_bytes: 4,
            },
            SharedRemap::Pad {
                base: 64,
                len: 128,
                row_bytes: 32,
                pad_bytes: 4,
            },
        ];
        assert!(SmemMap::new(&two, &k, 256).is_err());
    }
}
