//! Embedded measured tables (`crates/emu/data/mufu_*.zst`, made by `calibration/mufu/tables.py`
//! from the H200's results), zstd-compressed, decoded on first use.
//!
//! A `deltas` table is the GPU's result words over a range of inputs as the differences of
//! consecutive words (the first relative to 0): one signed byte for a difference in [-127, 127],
//! else the byte 0x80 and the difference as four little-endian bytes (the format
//! calibration/mufu/mufu2.cu writes). A smooth function's differences repeat, so they compress far
//! better than the results. A `corrections` table is one signed byte per input: the result minus
//! the reference, kept so in memory (65,536 entries).
//!
//! In memory a `deltas` table is a model of the unit's error and the entries it mispredicts
//! (`Model`): the unit's result lies within about one unit in the last place of the exact value
//! `y(i)` (which the caller computes in f64), and its error drifts slowly with the input. Per
//! segment of 1,024 entries, a straight line `a + b t` (t the entry's offset from the segment's
//! middle) fitted to the error in units in the last place predicts each result as `y + (a + b t)
//! ulp(y)` rounded to f32; the 0.3 to 1 % of entries where that prediction misses are kept aside
//! per segment (their offset and the result's difference from the prediction), and a bit per 8
//! entries marks the groups that hold one (7 % of `RSQ`'s groups). The 16 M-entry `RSQ` table takes about 1 MB so (16 MB
//! as a signed byte per entry), within a core's L2; the results are the measured ones bit for bit
//! (a test compares every entry with the embedded table).
//! The `RSQ` and `SQRT` models are shipped so (`crates/emu/data/mufu_{rsq,sqrt}.fit.zst`, written
//! by `examples/mufu_fit.rs`; 0.36 and 0.21 MB) and read in a few milliseconds instead of fitted
//! in every process (about 0.3 s of CPU for `RSQ`); the others' exact values come from the C
//! library's `exp2`/`log2`, whose last bit may differ between hosts, so they are fitted where
//! they run. A unit test checks that the shipped models are what the fitting gives and that they
//! give every measured entry.
//! A table whose error the line does not follow keeps instead two bits an entry (the result minus
//! the correctly rounded one: -1, 0, +1) where that is smaller, else a signed byte an entry as
//! before (`LG2`, which truncates and has an absolute error; `SIN` and `TANH`, indexed by
//! fixed-point inputs), the entries further off aside in each.

use std::sync::OnceLock;

pub(crate) struct Table {
    what: &'static str,
    z: &'static [u8],
    n: usize,
    kind: Kind,
    /// a `deltas` table's model as [`Model::write`] lays it out, zstd-compressed
    /// (`crates/emu/data/*.fit.zst`): read instead of fitted again in every process
    fitted: Option<&'static [u8]>,
    cell: OnceLock<Decoded>,
}

#[derive(Clone, Copy)]
enum Kind {
    /// differences of consecutive results; the exact value of entry `i`
    Deltas(fn(usize) -> f64),
    /// results minus `reference(i)`, one signed byte each
    Corrections(fn(usize) -> u32),
}

enum Decoded {
    Corr(Vec<i8>),
    Model(Model),
    Packed(Packed),
    Bytes(Bytes),
}

/// log2 of the entries per segment
const SEG: u32 = 10;
/// an exception's difference that does not fit 16 bits: the result is in `far`
const FAR: i16 = i16::MIN;

#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Seg {
    /// the error line, in units in the last place of the exact value
    a: f32,
    b: f32,
    /// the segment's exceptions: `exc[first..end]`
    first: u32,
    end: u32,
    /// bit `g` set when an exception's offset is in `[8 g, 8 g + 8)`: most lookups learn from
    /// one bit that they have none, a branch the host predicts (the scan of the segment's
    /// exceptions mispredicted nearly every time). Beside the line, so that a lookup's line and
    /// mark come in one cache line (two gathers a lane from two tables before)
    groups: u128,
}

// `Model::near8` gathers the fields at these offsets
const _: () = assert!(std::mem::size_of::<Seg>() == 32 && std::mem::offset_of!(Seg, groups) == 16);

pub(crate) struct Model {
    exact: fn(usize) -> f64,
    segs: Vec<Seg>,
    /// per mispredicted entry, ascending within its segment: offset in the segment << 16 | the
    /// result minus the prediction (as a u16; `FAR`: the result is in `far`)
    exc: Vec<u32>,
    /// (entry, result) of the exceptions marked `FAR`, ascending
    far: Vec<(u32, u32)>,
}

/// log2 of the entries per bit of [`Seg::groups`]
const GROUP: u32 = SEG - 7;

/// [`Seg::groups`] of a segment's exceptions `exc`.
fn groups_of(exc: &[u32]) -> u128 {
    exc.iter().fold(0u128, |g, &x| g | 1 << (x >> 16 >> GROUP))
}

/// The prediction of an entry whose exact value is `y`, `t` entries from its segment's middle.
#[inline(always)]
fn predict(y: f64, a: f32, b: f32, t: i32) -> u32 {
    (sum(y, a, b, t) as f32).to_bits()
}

/// The f64 value [`predict`] rounds to f32.
#[inline(always)]
fn sum(y: f64, a: f32, b: f32, t: i32) -> f64 {
    // the f32 unit in the last place at |y|: 2^(exponent - 23)
    let ulp = f64::from_bits(y.to_bits() & 0x7ff0_0000_0000_0000) * (1.0 / 8_388_608.0);
    y + (a as f64 + b as f64 * t as f64) * ulp
}

/// Entry `i`'s offset from the middle of its segment.
#[inline(always)]
fn centred(i: usize) -> i32 {
    (i & ((1 << SEG) - 1)) as i32 - (1 << (SEG - 1))
}

impl Table {
    /// `n` entries stored as differences of consecutive results; `exact(i)` is entry `i`'s exact
    /// value (its f32 rounding is the correctly rounded result).
    pub(crate) const fn deltas(
        what: &'static str,
        z: &'static [u8],
        n: usize,
        exact: fn(usize) -> f64,
    ) -> Table {
        Table {
            what,
            z,
            n,
            kind: Kind::Deltas(exact),
            fitted: None,
            cell: OnceLock::new(),
        }
    }

    /// A `deltas` table whose model is shipped fitted (`fitted`, as [`Table::fit`] gives it,
    /// zstd-compressed). Only for an `exact` that every host computes to the same bits (IEEE's
    /// correctly rounded `sqrt` and division, not the C library's `exp2` or `log2`): the model's
    /// exceptions are the entries its prediction from `exact` misses.
    pub(crate) const fn deltas_fitted(
        what: &'static str,
        z: &'static [u8],
        fitted: &'static [u8],
        n: usize,
        exact: fn(usize) -> f64,
    ) -> Table {
        Table {
            what,
            z,
            n,
            kind: Kind::Deltas(exact),
            fitted: Some(fitted),
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
            kind: Kind::Corrections(reference),
            fitted: None,
            cell: OnceLock::new(),
        }
    }

    fn raw(&self) -> Vec<u8> {
        unzstd(self.what, self.z, self.n)
    }

    /// The model fitted afresh from the measured differences, laid out by [`Model::write`]
    /// (what `crates/emu/data/*.fit.zst` holds, compressed); `None` for a table that decodes to
    /// something else.
    pub(crate) fn fit(&self) -> Option<Vec<u8>> {
        match self.kind {
            Kind::Deltas(exact) => {
                let m = self.model(exact, &self.raw());
                (m.bytes() <= self.n / 4).then(|| m.write(self.n))
            }
            Kind::Corrections(_) => None,
        }
    }

    /// The shipped model's bytes, decompressed (`None` where none is shipped).
    #[cfg(test)]
    pub(crate) fn shipped_fit(&self) -> Option<Vec<u8>> {
        self.fitted.map(|z| unzstd(self.what, z, 0))
    }

    /// The embedded table's result words, entry by entry (a `deltas` table's differences summed).
    pub(crate) fn results(&self) -> Vec<u32> {
        let raw = self.raw();
        let out: Vec<u32> = match self.kind {
            Kind::Corrections(reference) => raw
                .iter()
                .enumerate()
                .map(|(i, &c)| reference(i).wrapping_add(c as i8 as i32 as u32))
                .collect(),
            Kind::Deltas(_) => {
                let mut out = Vec::with_capacity(self.n);
                let (mut v, mut at) = (0u32, 0usize);
                while at < raw.len() {
                    v = v.wrapping_add(self.difference(&raw, &mut at));
                    out.push(v);
                }
                out
            }
        };
        assert_eq!(out.len(), self.n, "the embedded {} table's length", self.what);
        out
    }

    /// The difference at `raw[*at..]`, `at` moved past it.
    #[inline(always)]
    fn difference(&self, raw: &[u8], at: &mut usize) -> u32 {
        let d = if raw[*at] == 0x80 {
            let w = raw
                .get(*at + 1..*at + 5)
                .unwrap_or_else(|| panic!("the embedded {} table ends inside a difference", self.what));
            *at += 5;
            i32::from_le_bytes(w.try_into().unwrap())
        } else {
            *at += 1;
            raw[*at - 1] as i8 as i32
        };
        d as u32
    }

    /// A `deltas` table's model built from its differences `raw` segment by segment, without
    /// the table's results in memory at once (64 MB for the 16 M-entry `RSQ`, whose page faults
    /// cost as much as the fitting): one pass finds where each segment's differences start and
    /// the result before it, then each segment decodes its own results and is fitted.
    fn model(&self, exact: fn(usize) -> f64, raw: &[u8]) -> Model {
        let seg = 1usize << SEG;
        let mut starts = Vec::with_capacity(self.n.div_ceil(seg));
        let (mut v, mut at) = (0u32, 0usize);
        for i in 0..self.n {
            if i % seg == 0 {
                starts.push((at, v));
            }
            if at >= raw.len() {
                panic!("the embedded {} table's length", self.what);
            }
            v = v.wrapping_add(self.difference(raw, &mut at));
        }
        assert_eq!(at, raw.len(), "the embedded {} table's length", self.what);
        Model::build_from(exact, starts.len(), |s, chunk: &mut Vec<u32>| {
            let (mut at, mut v) = starts[s];
            chunk.clear();
            for _ in 0..seg.min(self.n - s * seg) {
                v = v.wrapping_add(self.difference(raw, &mut at));
                chunk.push(v);
            }
        })
    }

    fn decode(&self) -> Decoded {
        match self.kind {
            Kind::Corrections(_) => {
                let raw = self.raw();
                assert_eq!(raw.len(), self.n, "the embedded {} table's length", self.what);
                Decoded::Corr(raw.into_iter().map(|d| d as i8).collect())
            }
            Kind::Deltas(exact) if self.fitted.is_some() => {
                let raw = unzstd(self.what, self.fitted.unwrap_or_default(), 0);
                Decoded::Model(Model::read(self.what, exact, self.n, &raw))
            }
            Kind::Deltas(exact) => {
                let m = self.model(exact, &self.raw());
                // a function whose error the line does not follow (a truncating one, or one
                // indexed by a fixed-point input) keeps two bits an entry instead, or a byte
                // where its results are often further than one unit off the correctly rounded
                if m.bytes() <= self.n / 4 {
                    return Decoded::Model(m);
                }
                drop(m);
                let res = self.results();
                let p = Packed::build(exact, &res);
                if p.bytes() <= res.len() {
                    return Decoded::Packed(p);
                }
                drop(p);
                Decoded::Bytes(Bytes::build(exact, &res))
            }
        }
    }

    /// The measured result word of entry `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self.cell.get_or_init(|| self.decode()) {
            Decoded::Corr(corr) => match self.kind {
                Kind::Corrections(reference) => reference(i).wrapping_add(corr[i] as i32 as u32),
                Kind::Deltas(_) => unreachable!("a deltas table decodes to a model"),
            },
            Decoded::Model(m) => m.get(i),
            Decoded::Packed(p) => p.get(i),
            Decoded::Bytes(b) => b.get(i),
        }
    }

    /// The decoded model of a `deltas` table whose error the line follows (`RSQ`, `SQRT`), `None`
    /// for a table kept otherwise: a caller looking up many entries matches the decoding once,
    /// and [`Model::get_near_lanes`] inlines into its loop (called per entry through the table,
    /// the lookup stayed out of line: a quarter of an `rsqrt`-bound kernel's time).
    #[inline]
    pub(crate) fn decoded_model(&self) -> Option<&Model> {
        match self.cell.get_or_init(|| self.decode()) {
            Decoded::Model(m) => Some(m),
            _ => None,
        }
    }

    /// The bytes the decoded table holds.
    #[cfg(test)]
    pub(crate) fn footprint(&self) -> usize {
        match self.cell.get_or_init(|| self.decode()) {
            Decoded::Corr(c) => c.len(),
            Decoded::Model(m) => m.bytes(),
            Decoded::Packed(p) => p.bytes(),
            Decoded::Bytes(b) => b.corr.len() + b.far.len() * 8,
        }
    }
}

/// The zstd stream `z` of the embedded table `what`, decoded (`capacity`: its expected size).
fn unzstd(what: &str, z: &[u8], capacity: usize) -> Vec<u8> {
    use std::io::Read;
    let mut raw = Vec::with_capacity(capacity);
    let mut dec = ruzstd::decoding::StreamingDecoder::new(z)
        .unwrap_or_else(|e| panic!("the embedded {what} table is not zstd: {e}"));
    dec.read_to_end(&mut raw)
        .unwrap_or_else(|e| panic!("the embedded {what} table does not decode: {e}"));
    raw
}

/// The first bytes of a written model.
const FIT_MAGIC: &[u8; 8] = b"WSMUFU1\n";

/// Reads little-endian words off the front of a byte slice.
struct Words<'a>(&'a [u8], &'a str);

impl Words<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self
            .0
            .split_first_chunk::<N>()
            .unwrap_or_else(|| panic!("the embedded {} model ends early", self.1));
        self.0 = rest;
        *head
    }
    fn u16s(&mut self, n: usize) -> Vec<u16> {
        (0..n).map(|_| u16::from_le_bytes(self.take())).collect()
    }
    fn u32s(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| u32::from_le_bytes(self.take())).collect()
    }
}

impl Model {
    /// The model as bytes, column by column (they compress better so): the magic, the entries,
    /// the segments, exceptions and far entries (u32 each), per segment `a` and `b` (f32 bits)
    /// and its exception count (u16), per exception its offset and difference (u16 each), per far
    /// entry its index and result (u32 each); all little-endian.
    fn write(&self, n: usize) -> Vec<u8> {
        let mut out = FIT_MAGIC.to_vec();
        for v in [n, self.segs.len(), self.exc.len(), self.far.len()] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for s in &self.segs {
            out.extend_from_slice(&s.a.to_bits().to_le_bytes());
        }
        for s in &self.segs {
            out.extend_from_slice(&s.b.to_bits().to_le_bytes());
        }
        for s in &self.segs {
            out.extend_from_slice(&((s.end - s.first) as u16).to_le_bytes());
        }
        for &x in &self.exc {
            out.extend_from_slice(&((x >> 16) as u16).to_le_bytes());
        }
        for &x in &self.exc {
            out.extend_from_slice(&(x as u16).to_le_bytes());
        }
        for &(i, _) in &self.far {
            out.extend_from_slice(&i.to_le_bytes());
        }
        for &(_, r) in &self.far {
            out.extend_from_slice(&r.to_le_bytes());
        }
        out
    }

    /// The model [`Model::write`] laid out as `raw`, of the table `what` of `n` entries.
    fn read(what: &str, exact: fn(usize) -> f64, n: usize, raw: &[u8]) -> Model {
        let mut w = Words(raw, what);
        assert_eq!(&w.take::<8>(), FIT_MAGIC, "the embedded {what} model's magic");
        let [entries, nseg, nexc, nfar] = [0; 4].map(|_| u32::from_le_bytes(w.take()) as usize);
        assert_eq!(entries, n, "the embedded {what} model's entries");
        assert_eq!(nseg, n.div_ceil(1 << SEG), "the embedded {what} model's segments");
        let a = w.u32s(nseg);
        let b = w.u32s(nseg);
        let counts = w.u16s(nseg);
        let offs = w.u16s(nexc);
        let diffs = w.u16s(nexc);
        let far_i = w.u32s(nfar);
        let far_r = w.u32s(nfar);
        assert!(w.0.is_empty(), "the embedded {what} model has bytes past its end");
        let exc: Vec<u32> = offs
            .iter()
            .zip(&diffs)
            .map(|(&o, &d)| u32::from(o) << 16 | u32::from(d))
            .collect();
        let (mut segs, mut first) = (Vec::with_capacity(nseg), 0usize);
        for s in 0..nseg {
            let end = first + counts[s] as usize;
            let e = exc
                .get(first..end)
                .unwrap_or_else(|| panic!("the embedded {what} model's exception counts"));
            segs.push(Seg {
                a: f32::from_bits(a[s]),
                b: f32::from_bits(b[s]),
                first: first as u32,
                end: end as u32,
                groups: groups_of(e),
            });
            first = end;
        }
        assert_eq!(first, nexc, "the embedded {what} model's exception counts");
        Model {
            exact,
            segs,
            exc,
            far: far_i.into_iter().zip(far_r).collect(),
        }
    }

    fn bytes(&self) -> usize {
        // the lines and marks as they were laid out apart (16 and 8 bytes a segment): the size
        // that chooses a table's form
        self.segs.len() * 24 + self.exc.len() * 4 + self.far.len() * 8
    }

    /// The model of `nseg` segments whose results `results(s, chunk)` puts in `chunk`.
    fn build_from(
        exact: fn(usize) -> f64,
        nseg: usize,
        results: impl Fn(usize, &mut Vec<u32>) + Sync,
    ) -> Model {
        use rayon::prelude::*;
        // segments apart on every thread, then laid end to end
        let parts: Vec<_> = (0..nseg)
            .into_par_iter()
            .map_init(
                || Vec::with_capacity(1 << SEG),
                |chunk, s| {
                    results(s, chunk);
                    Model::segment(exact, s << SEG, chunk)
                },
            )
            .collect();
        let mut segs = Vec::with_capacity(parts.len());
        let mut exc = Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum());
        let mut far = Vec::new();
        for (mut seg, e, f) in parts {
            seg.groups = groups_of(&e);
            seg.first = exc.len() as u32;
            exc.extend_from_slice(&e);
            seg.end = exc.len() as u32;
            segs.push(seg);
            far.extend_from_slice(&f);
        }
        Model {
            exact,
            segs,
            exc,
            far,
        }
    }

    /// The line of the segment of results `chunk` (entries from `base` on), its exceptions and
    /// its far ones.
    fn segment(exact: fn(usize) -> f64, base: usize, chunk: &[u32]) -> (Seg, Vec<u32>, Vec<(u32, u32)>) {
        let ys: Vec<f64> = (0..chunk.len()).map(|k| exact(base + k)).collect();
        // least squares over the entries within 4 ulp (the rest would only bend the line)
        let (mut n, mut st, mut se, mut stt, mut ste) = (0f64, 0f64, 0f64, 0f64, 0f64);
        for (k, (&r, &y)) in chunk.iter().zip(&ys).enumerate() {
            // 1 / ulp(y) = 2^(23 - exponent): a power of two, no division (a zero or tiny `y`
            // gives an infinite or NaN error, left out below)
            let exp = ((y.to_bits() >> 52) & 0x7ff) as i64;
            let inv_ulp = f64::from_bits(((2046 - exp).clamp(0, 2046) as u64) << 52) * 8_388_608.0;
            let e = (f32::from_bits(r) as f64 - y) * inv_ulp;
            if e.abs() <= 4.0 {
                let t = centred(base + k) as f64;
                n += 1.0;
                st += t;
                se += e;
                stt += t * t;
                ste += t * e;
            }
        }
        let (a, b) = if n < 2.0 {
            (0.0, 0.0)
        } else {
            let var = stt - st * st / n;
            let b = if var > 0.0 { (ste - st * se / n) / var } else { 0.0 };
            ((se - b * st) / n, b)
        };
        let (a, b) = (a as f32, b as f32);
        let (mut exc, mut far) = (Vec::new(), Vec::new());
        for (k, (&r, &y)) in chunk.iter().zip(&ys).enumerate() {
            let p = predict(y, a, b, centred(base + k));
            if p != r {
                let d = r.wrapping_sub(p) as i32;
                let d = match i16::try_from(d) {
                    Ok(d) if d != FAR => d,
                    _ => {
                        far.push(((base + k) as u32, r));
                        FAR
                    }
                };
                exc.push((k as u32) << 16 | d as u16 as u32);
            }
        }
        let seg = Seg {
            a,
            b,
            first: 0,
            end: 0,
            groups: 0,
        };
        (seg, exc, far)
    }

    #[inline]
    fn get(&self, i: usize) -> u32 {
        self.get_exact(i, (self.exact)(i))
    }

    /// Entry `i` whose exact value is `y`.
    #[inline(always)]
    pub(crate) fn get_exact(&self, i: usize, y: f64) -> u32 {
        let s = self.segs[i >> SEG];
        let p = predict(y, s.a, s.b, centred(i));
        let off = (i & ((1 << SEG) - 1)) as u32;
        if s.groups >> (off >> GROUP) & 1 == 0 {
            return p;
        }
        self.exception(i, p)
    }

    /// [`Model::get_exact`] of 32 entries `at`, from values `near` within `tol` units in the last
    /// place (of the f64 sum the prediction rounds) of the exact ones: the segments' lines gathered
    /// first, the 32 predictions then computed together (the host vectorises them), the entries of
    /// a group with an exception looked up after; a lane whose sum lies within `tol` of a
    /// point where rounding to f32 goes the other way (halfway between two f32 values) has its
    /// exact value computed (`exact`) and predicted from it; the others round as the exact value
    /// would. The same bits, entry by entry, as `get_exact` with the exact values.
    #[inline(always)]
    pub(crate) fn get_near_lanes(&self, at: &[usize; 32], near: &[f64; 32], tol: u64) -> [u32; 32] {
        let (mut a, mut b, mut t, mut g) = ([0f32; 32], [0f32; 32], [0i32; 32], [0u128; 32]);
        // every entry's segment is at most the or of the entries' segments: one bounds check for
        // the row instead of one a lane
        let or = at.iter().fold(0, |o, &i| o | i);
        assert!(or >> SEG < self.segs.len(), "an entry past the table's segments");
        // the segments' lines and exception groups gathered (loads only), then the marks
        // computed over whole arrays
        for l in 0..32 {
            // SAFETY: `at[l] >> SEG <= or >> SEG`, in bounds (asserted above)
            let seg = unsafe { self.segs.get_unchecked(at[l] >> SEG) };
            (a[l], b[l], g[l]) = (seg.a, seg.b, seg.groups);
        }
        let mut marked = 0u32;
        for l in 0..32 {
            t[l] = centred(at[l]);
            let off = (at[l] & ((1 << SEG) - 1)) as u32;
            marked |= ((g[l] >> (off >> GROUP) & 1) as u32) << l;
        }
        #[cfg(target_arch = "x86_64")]
        {
            // the marked lanes' segments' exceptions, scanned below: their lines requested now,
            // all lanes' together (scanned one after another, each waited for its own miss)
            let mut m = marked;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let first = self.segs[at[l] >> SEG].first as usize;
                // SAFETY: a prefetch reads nothing into the program and never faults
                unsafe {
                    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                    _mm_prefetch::<_MM_HINT_T0>(self.exc.as_ptr().wrapping_add(first) as *const i8);
                }
            }
        }
        let mut out = [0u32; 32];
        let mut close = 0u32;
        for l in 0..32 {
            let v = sum(near[l], a[l], b[l], t[l]);
            // the f64 bits below an f32's 23 fraction bits: 2^28 is halfway
            let low = v.to_bits() & ((1 << 29) - 1);
            close |= u32::from(low.abs_diff(1 << 28) <= tol) << l;
            out[l] = (v as f32).to_bits();
        }
        while close != 0 {
            let l = close.trailing_zeros() as usize;
            close &= close - 1;
            out[l] = predict((self.exact)(at[l]), a[l], b[l], t[l]);
        }
        while marked != 0 {
            let l = marked.trailing_zeros() as usize;
            marked &= marked - 1;
            out[l] = self.exception(at[l], out[l]);
        }
        out
    }

    /// Whether every entry below `n` has a segment (for callers that index without checks).
    pub(crate) fn covers(&self, n: usize) -> bool {
        self.segs.len() << SEG >= n
    }

    /// [`Model::get_near_lanes`]'s predictions of 8 entries `at` (i32 lanes) from their near
    /// values (`lo`: lanes 0-3, `hi`: 4-7) on 256-bit vectors: the segments' lines and marks
    /// gathered (`vpgatherdd`/`vpgatherdq`), the sums in f64 four lanes to a vector, rounded to
    /// f32 (`vcvtpd2ps`, the default rounding as `as f32`). Returns the predictions, the lanes
    /// (bits 0-7) whose sum is within `tol` of a rounding point and the lanes marked as in a
    /// group with an exception; [`Model::fix_lanes`] corrects both afterwards. The same f64
    /// operations in the same order as [`sum`], so the same bits.
    ///
    /// # Safety
    /// The CPU has AVX2, and every entry of `at` is below `n` with `self.covers(n)`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) unsafe fn near8(
        &self,
        at: std::arch::x86_64::__m256i,
        lo: std::arch::x86_64::__m256d,
        hi: std::arch::x86_64::__m256d,
        tol: u64,
    ) -> (std::arch::x86_64::__m256i, u32, u32) {
        use std::arch::x86_64::*;
        let base = self.segs.as_ptr();
        let seg = _mm256_srli_epi32::<{ SEG as i32 }>(at);
        let off = _mm256_and_si256(at, _mm256_set1_epi32((1 << SEG) - 1));
        let grp = _mm256_srli_epi32::<{ GROUP as i32 }>(off);
        // `Seg` is 32 bytes (repr(C)): `a` at 0, `b` at 4 (f32 units: segment * 8), `groups` at
        // 16, little-endian: group `g`'s word at 16 + 8 (g / 64) (u64 units from 16: segment * 4
        // + g / 64), its bit `g % 64`
        let i8s = _mm256_slli_epi32::<3>(seg);
        let i4s = _mm256_add_epi32(_mm256_slli_epi32::<2>(seg), _mm256_srli_epi32::<6>(grp));
        // SAFETY: every segment index is in bounds (the caller's contract), the fields' offsets
        // lie within `Seg`
        let (a, b, g0, g1) = unsafe {
            let fa = base as *const f32;
            let gp = (base as *const i64).add(2);
            (
                _mm256_i32gather_ps::<4>(fa, i8s),
                _mm256_i32gather_ps::<4>(fa.add(1), i8s),
                _mm256_i32gather_epi64::<8>(gp, _mm256_castsi256_si128(i4s)),
                _mm256_i32gather_epi64::<8>(gp, _mm256_extracti128_si256::<1>(i4s)),
            )
        };
        let bit = _mm256_and_si256(grp, _mm256_set1_epi32(63));
        let mark = |g: __m256i, gi: __m128i| {
            let bit = _mm256_srlv_epi64(g, _mm256_cvtepu32_epi64(gi));
            _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_slli_epi64::<63>(bit))) as u32
        };
        let marked =
            mark(g0, _mm256_castsi256_si128(bit)) | mark(g1, _mm256_extracti128_si256::<1>(bit)) << 4;
        let t = _mm256_sub_epi32(off, _mm256_set1_epi32(1 << (SEG - 1)));
        let half = |y: __m256d, a: __m128, b: __m128, t: __m128i| {
            let expo = _mm256_and_pd(y, _mm256_castsi256_pd(_mm256_set1_epi64x(0x7ff0_0000_0000_0000)));
            let ulp = _mm256_mul_pd(expo, _mm256_set1_pd(1.0 / 8_388_608.0));
            let line = _mm256_add_pd(
                _mm256_cvtps_pd(a),
                _mm256_mul_pd(_mm256_cvtps_pd(b), _mm256_cvtepi32_pd(t)),
            );
            let v = _mm256_add_pd(y, _mm256_mul_pd(line, ulp));
            let low = _mm256_and_si256(_mm256_castpd_si256(v), _mm256_set1_epi64x((1 << 29) - 1));
            let d = _mm256_sub_epi64(low, _mm256_set1_epi64x(1 << 28));
            let tol = tol as i64;
            let off = _mm256_or_si256(
                _mm256_cmpgt_epi64(d, _mm256_set1_epi64x(tol)),
                _mm256_cmpgt_epi64(_mm256_set1_epi64x(-tol), d),
            );
            let close = !(_mm256_movemask_pd(_mm256_castsi256_pd(off)) as u32) & 0xf;
            (_mm256_cvtpd_ps(v), close)
        };
        let (r0, c0) = half(
            lo,
            _mm256_castps256_ps128(a),
            _mm256_castps256_ps128(b),
            _mm256_castsi256_si128(t),
        );
        let (r1, c1) = half(
            hi,
            _mm256_extractf128_ps::<1>(a),
            _mm256_extractf128_ps::<1>(b),
            _mm256_extracti128_si256::<1>(t),
        );
        let out = _mm256_castps_si256(_mm256_set_m128(r1, r0));
        (out, c0 | c1 << 4, marked)
    }

    /// The lanes [`Model::near8`] left to correct: those of `close` predicted from their exact
    /// value, then those of `marked` looked up among their segments' exceptions (every lane's
    /// exceptions requested first), as [`Model::get_near_lanes`] does.
    #[inline]
    pub(crate) fn fix_lanes(&self, at: &[u32; 32], out: &mut [u32; 32], mut close: u32, mut marked: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            let mut m = marked;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let first = self.segs[at[l] as usize >> SEG].first as usize;
                // SAFETY: a prefetch reads nothing into the program and never faults
                unsafe {
                    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                    _mm_prefetch::<_MM_HINT_T0>(self.exc.as_ptr().wrapping_add(first) as *const i8);
                }
            }
        }
        while close != 0 {
            let l = close.trailing_zeros() as usize;
            close &= close - 1;
            let i = at[l] as usize;
            let s = self.segs[i >> SEG];
            out[l] = predict((self.exact)(i), s.a, s.b, centred(i));
        }
        while marked != 0 {
            let l = marked.trailing_zeros() as usize;
            marked &= marked - 1;
            out[l] = self.exception(at[l] as usize, out[l]);
        }
    }

    /// Entry `i` whose prediction is `p`, in a group that holds an exception: the exception's
    /// result where `i` is one, else `p`.
    #[inline(always)]
    fn exception(&self, i: usize, p: u32) -> u32 {
        let s = self.segs[i >> SEG];
        let off = (i & ((1 << SEG) - 1)) as u32;
        let exc = &self.exc[s.first as usize..s.end as usize];
        // the segment's exceptions are ascending by offset, so those of the marked groups below
        // `off`'s (at least one each) come first: the search starts past as many as there are
        // such groups, then steps over the rest below `off` (an earlier group's second one, or
        // one of `off`'s group before it: mostly none), not over the whole segment's list
        let group = off >> GROUP;
        let mut below = (s.groups & ((1u128 << group) - 1)).count_ones() as usize;
        while exc.get(below).is_some_and(|&x| x >> 16 < off) {
            below += 1;
        }
        match exc.get(below) {
            Some(&x) if x >> 16 == off => {
                let d = x as u16 as i16;
                if d == FAR {
                    let k = self
                        .far
                        .binary_search_by_key(&(i as u32), |p| p.0)
                        .expect("a far entry is listed");
                    return self.far[k].1;
                }
                p.wrapping_add(d as i32 as u32)
            }
            _ => p,
        }
    }
}

/// Two bits an entry: the result minus the correctly rounded one, plus one (-1, 0, +1), or 3
/// with the result in `far`.
struct Packed {
    exact: fn(usize) -> f64,
    bits: Vec<u64>,
    /// (entry, result), ascending
    far: Vec<(u32, u32)>,
}

impl Packed {
    fn bytes(&self) -> usize {
        self.bits.len() * 8 + self.far.len() * 8
    }

    fn build(exact: fn(usize) -> f64, res: &[u32]) -> Packed {
        let mut bits = vec![0u64; res.len().div_ceil(32)];
        let mut far = Vec::new();
        for (i, &r) in res.iter().enumerate() {
            let c = r.wrapping_sub((exact(i) as f32).to_bits()).wrapping_add(1);
            let code = if c < 3 {
                c as u64
            } else {
                far.push((i as u32, r));
                3
            };
            bits[i / 32] |= code << (2 * (i % 32));
        }
        Packed { exact, bits, far }
    }

    #[inline]
    fn get(&self, i: usize) -> u32 {
        let code = (self.bits[i / 32] >> (2 * (i % 32))) & 3;
        if code == 3 {
            let k = self
                .far
                .binary_search_by_key(&(i as u32), |p| p.0)
                .expect("a far entry is listed");
            return self.far[k].1;
        }
        ((self.exact)(i) as f32)
            .to_bits()
            .wrapping_add(code as u32)
            .wrapping_sub(1)
    }
}

/// A signed byte an entry: the result minus the correctly rounded one (`FAR`: the result is in
/// `far`).
struct Bytes {
    exact: fn(usize) -> f64,
    corr: Vec<i8>,
    /// (entry, result), ascending
    far: Vec<(u32, u32)>,
}

impl Bytes {
    fn build(exact: fn(usize) -> f64, res: &[u32]) -> Bytes {
        let mut far = Vec::new();
        let corr = res
            .iter()
            .enumerate()
            .map(
                |(i, &r)| match i8::try_from(r.wrapping_sub((exact(i) as f32).to_bits()) as i32) {
                    Ok(c) if c != i8::MIN => c,
                    _ => {
                        far.push((i as u32, r));
                        i8::MIN
                    }
                },
            )
            .collect();
        Bytes { exact, corr, far }
    }

    #[inline]
    fn get(&self, i: usize) -> u32 {
        let c = self.corr[i];
        if c == i8::MIN {
            let k = self
                .far
                .binary_search_by_key(&(i as u32), |p| p.0)
                .expect("a far entry is listed");
            return self.far[k].1;
        }
        ((self.exact)(i) as f32).to_bits().wrapping_add(c as i32 as u32)
    }
}
