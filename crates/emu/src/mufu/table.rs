//! Embedded measured tables (`crates/emu/data/mufu_*.zst`, made by `calibration/mufu/tables.py`
//! from the H200's results), zstd-compressed, decoded on first use.
//!
//! A `deltas` table is the GPU's result words over a range of inputs as the differences of
//! consecutive words (the first relative to 0): one signed byte for a difference in [-127, 127],
//! else the byte 0x80 and the difference as four little-endian bytes (the format
//! calibration/mufu/mufu2.cu writes). A smooth function's differences repeat, so they compress far
//! better than the results. A `corrections` table is one signed byte per input: the result minus
//! the reference. In memory each entry is the result minus a reference the caller computes (the
//! correctly rounded value) in one signed byte; the few results further off (where the unit's
//! error is absolute and the result is tiny) are kept whole, aside.

use std::sync::OnceLock;

pub(crate) struct Table {
    what: &'static str,
    z: &'static [u8],
    n: usize,
    reference: fn(usize) -> u32,
    deltas: bool,
    cell: OnceLock<Decoded>,
}

struct Decoded {
    corr: Vec<i8>,
    /// (entry, result) of the entries whose correction does not fit (marked `FAR` in `corr`)
    far: Vec<(u32, u32)>,
}

const FAR: i8 = i8::MIN;

impl Table {
    /// `n` entries stored as differences of consecutive results; `reference(i)` is entry `i`'s
    /// reference result.
    pub(crate) const fn deltas(
        what: &'static str,
        z: &'static [u8],
        n: usize,
        reference: fn(usize) -> u32,
    ) -> Table {
        Table {
            what,
            z,
            n,
            reference,
            deltas: true,
            cell: OnceLock::new(),
        }
    }

    /// `n` entries stored as results minus `reference(i)`, one signed byte each.
    pub(crate) const fn corrections(
        what: &'static str,
        z: &'static [u8],
        n: usize,
        reference: fn(usize) -> u32,
    ) -> Table {
        Table {
            what,
            z,
            n,
            reference,
            deltas: false,
            cell: OnceLock::new(),
        }
    }

    fn decode(&self) -> Decoded {
        use std::io::Read;
        let mut raw = Vec::with_capacity(self.n);
        let mut dec = ruzstd::decoding::StreamingDecoder::new(self.z)
            .unwrap_or_else(|e| panic!("the embedded {} table is not zstd: {e}", self.what));
        dec.read_to_end(&mut raw)
            .unwrap_or_else(|e| panic!("the embedded {} table does not decode: {e}", self.what));
        if !self.deltas {
            assert_eq!(raw.len(), self.n, "the embedded {} table's length", self.what);
            return Decoded {
                corr: raw.into_iter().map(|d| d as i8).collect(),
                far: Vec::new(),
            };
        }
        let mut corr = Vec::with_capacity(self.n);
        let mut far = Vec::new();
        let (mut v, mut at) = (0u32, 0usize);
        while at < raw.len() {
            let d = if raw[at] == 0x80 {
                let w = raw
                    .get(at + 1..at + 5)
                    .unwrap_or_else(|| panic!("the embedded {} table ends inside a difference", self.what));
                at += 5;
                i32::from_le_bytes(w.try_into().unwrap())
            } else {
                at += 1;
                raw[at - 1] as i8 as i32
            };
            v = v.wrapping_add(d as u32);
            let i = corr.len();
            let c = v.wrapping_sub((self.reference)(i)) as i32;
            match i8::try_from(c) {
                Ok(c) if c != FAR => corr.push(c),
                _ => {
                    corr.push(FAR);
                    far.push((i as u32, v));
                }
            }
        }
        assert_eq!(corr.len(), self.n, "the embedded {} table's length", self.what);
        Decoded { corr, far }
    }

    /// The measured result word of entry `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u32 {
        let t = self.cell.get_or_init(|| self.decode());
        let c = t.corr[i];
        if c == FAR {
            let k = t
                .far
                .binary_search_by_key(&(i as u32), |p| p.0)
                .expect("a far entry is listed");
            return t.far[k].1;
        }
        (self.reference)(i).wrapping_add(c as i32 as u32)
    }
}
