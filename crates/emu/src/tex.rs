//! Texture fetches (`tex.{1d,2d,3d}.v4`) through texture objects.
//!
//! A texture object names texels in the global space (a CUDA array, laid out row by row, or a
//! pitched 2-D allocation) and how to sample them: address mode per dimension, point or linear
//! filtering, normalised or texel coordinates. Texels have 1, 2 or 4 channels of 32 bits (`float`,
//! `int`, `unsigned`) or of 8 or 16 bits (signed or unsigned integers, half floats), read as their
//! element type (integers zero- or sign-extended, halves widened exactly, a NaN's payload kept) or,
//! for 8- and 16-bit integers, as normalised floats (the value over 255, 65535, 127 or 32767,
//! correctly rounded, signed ones at least -1): all 256 values of each 8-bit kind and 256 of each
//! 16-bit kind equal the H100's (`calibration/run/textures8.cu`). The H100 filters such texels at a
//! lower precision than float ones (a result's last bits differ from filtering their float values),
//! so linear filtering stays with 32-bit floats. As the CUDA programming guide states the
//! hardware's rules: wrap and mirror apply to normalised coordinates only (texel coordinates
//! clamp); linear filtering samples at `x - 0.5` and weighs neighbours by the fraction held in
//! 9-bit fixed point with 8 fractional bits; a missing channel reads 0. How an H200 forms the
//! weights and the sum, bit for bit (calibration/run/gridspin/texwrap.cu, wrap and clamp): a
//! normalised coordinate cut to 21 fraction bits, the upper corner's 2-D weight rounded from the
//! product and the others the rest, one rounding of the exact sum, halves away from zero
//! (`filter_coordinate`, `corner_weights`, `filter`). Measured on the H100
//! (`calibration/run/textures.cu`, every sample printed): point sampling under every address mode
//! and linear filtering under clamp, wrap and mirror equal the GPU's bit for bit; linear filtering
//! next to border texels does not (0.296630859 where the H100 gives 0.297851562), so the runtime
//! refuses that combination.

//! Surface objects (`suld`/`sust`) use the same layout: [`surface_address`] maps a byte column,
//! row and slice to a global address under the access's boundary mode (measured on the H100:
//! `calibration/run/surfaces.cu`, zero and clamp modes outside the surface, equal).

/// Memory a texture reads its texels from (the global space: [`crate::mem::Global`]).
pub trait Texels {
    /// `bytes` (1, 2, 4 or 8) little-endian bytes at `addr`; `None` outside memory.
    fn read(&self, addr: u64, bytes: u64) -> Option<u64>;
}

/// How a coordinate outside the texture is brought in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Address {
    /// Repeat (normalised coordinates only).
    Wrap,
    /// The edge texel.
    Clamp,
    /// Repeat mirrored (normalised coordinates only).
    Mirror,
    /// The border colour (zero).
    Border,
}

/// The element type of the texels' channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 32-bit float.
    Float,
    /// 32-bit signed integer.
    Signed,
    /// 32-bit unsigned integer.
    Unsigned,
}

/// A texture object.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Global address of texel (0, 0, 0).
    pub base: u64,
    /// Bytes from one row to the next.
    pub pitch: u64,
    /// Texels per row, rows, slices (1 where a dimension is absent).
    pub size: [u32; 3],
    /// Channels per texel: 1, 2 or 4.
    pub channels: u8,
    /// Bits per channel: 8, 16 or 32 (16-bit floats are halves).
    pub bits: u8,
    /// The channels' type.
    pub format: Format,
    /// 8- and 16-bit integers read as normalised floats (`cudaReadModeNormalizedFloat`).
    pub normalized_read: bool,
    /// Address mode per dimension.
    pub address: [Address; 3],
    /// Linear filtering (float texels only); point sampling otherwise.
    pub linear: bool,
    /// Coordinates in [0, 1) across the texture rather than in texels.
    pub normalized: bool,
}

impl Texture {
    /// One channel's bits as the fetch returns them.
    fn convert(&self, raw: u64) -> u32 {
        let b = u32::from(self.bits);
        let signed = |raw: u64| -> i64 { ((raw << (64 - b)) as i64) >> (64 - b) };
        match (self.format, b, self.normalized_read) {
            (_, 32, _) => raw as u32,
            (Format::Float, _, _) => half_to_f32(raw as u16),
            (Format::Unsigned, _, false) => raw as u32,
            (Format::Signed, _, false) => signed(raw) as i32 as u32,
            (Format::Unsigned, _, true) => ((raw as f64 / ((1u64 << b) - 1) as f64) as f32).to_bits(),
            (Format::Signed, _, true) => {
                let v = signed(raw) as f64 / ((1u64 << (b - 1)) - 1) as f64;
                (v.max(-1.0) as f32).to_bits()
            }
        }
    }

    /// One texel's channels as the fetch's 32-bit words (`None`: outside memory).
    fn texel(&self, g: &dyn Texels, i: [i64; 3]) -> Option<[u32; 4]> {
        let mut out = [0u32; 4];
        for (d, &n) in self.size.iter().enumerate() {
            if i[d] < 0 || i[d] >= i64::from(n) {
                // a border texel (only Border leaves an index out of range)
                return Some(out);
            }
        }
        let row = i[2] as u64 * u64::from(self.size[1]) + i[1] as u64;
        let bytes = u64::from(self.bits / 8);
        let at = self.base + row * self.pitch + i[0] as u64 * u64::from(self.channels) * bytes;
        for (c, o) in out.iter_mut().enumerate().take(self.channels as usize) {
            *o = self.convert(g.read(at + bytes * c as u64, bytes)?);
        }
        Some(out)
    }

    /// The texel index of an integer coordinate `i` along dimension `d` under its address mode.
    fn index(&self, d: usize, i: i64) -> i64 {
        let n = i64::from(self.size[d]);
        let mode = match self.address[d] {
            // wrap and mirror need normalised coordinates; texel coordinates clamp
            Address::Wrap | Address::Mirror if !self.normalized => Address::Clamp,
            m => m,
        };
        match mode {
            Address::Clamp => i.clamp(0, n - 1),
            Address::Border => i,
            Address::Wrap => i.rem_euclid(n),
            Address::Mirror => {
                let p = i.rem_euclid(2 * n);
                if p < n { p } else { 2 * n - 1 - p }
            }
        }
    }

    /// Samples at `coords` (the first `dims` used) and returns the four result registers' bits.
    pub fn fetch(&self, g: &dyn Texels, dims: usize, coords: [f32; 3]) -> Option<[u32; 4]> {
        let mut u = [0f32; 3];
        for d in 0..dims {
            u[d] = if self.normalized {
                coords[d] * self.size[d] as f32
            } else {
                coords[d]
            };
        }
        if !self.linear || self.format != Format::Float || self.bits != 32 {
            let mut i = [0i64; 3];
            for d in 0..dims {
                i[d] = self.index(d, u[d].floor() as i64);
            }
            return self.texel(g, i);
        }
        // linear: the 2^dims texels around x - 0.5, weights with 8 fractional bits
        let mut lo = [0i64; 3];
        let mut a = [0u32; 3];
        for d in 0..dims {
            let x = filter_coordinate(coords[d], self.size[d], self.normalized);
            let f = x.floor();
            lo[d] = f as i64;
            // the fraction to 8 bits, halves up; in 3-D one that rounds to a whole texel is the
            // next texel's 0 (an H200's trilinear weights split their halves by the lower
            // texel's side: tex3probe.cu, a sample whose x rounds up so)
            a[d] = ((x - f) * 256.0 + 0.5).floor() as u32;
            if a[d] == 256 && dims == 3 {
                lo[d] += 1;
                a[d] = 0;
            }
        }
        let mut texels = [[0u32; 4]; 8];
        for (corner, t) in texels.iter_mut().enumerate().take(1 << dims) {
            let mut i = [0i64; 3];
            for d in 0..dims {
                i[d] = self.index(d, lo[d] + (corner >> d & 1) as i64);
            }
            *t = self.texel(g, i)?;
        }
        let weights = corner_weights(dims, a);
        let mut out = [0u32; 4];
        for (c, o) in out.iter_mut().enumerate() {
            let v: Vec<f32> = (0..1usize << dims)
                .map(|k| f32::from_bits(texels[k][c]))
                .collect();
            *o = filter(&weights[..1 << dims], &v).to_bits();
        }
        Some(out)
    }
}

/// The texel coordinate of linear filtering along one dimension of `size` texels: the sample
/// point `x - 0.5`. A normalised coordinate is first cut to a multiple of 2^-21 (towards minus
/// infinity), then multiplied by the size exactly: an H200 samples so
/// (calibration/run/gridspin/texwrap.cu: 15976 samples; with 2^-20 or 2^-22, towards zero, or a
/// product rounded to a float some differ).
fn filter_coordinate(c: f32, size: u32, normalized: bool) -> f64 {
    if normalized {
        const STEP: f64 = (1u64 << 21) as f64;
        // a float's significand times a size below 2^16: exact in a double
        (f64::from(c) * STEP).floor() / STEP * f64::from(size) - 0.5
    } else {
        f64::from(c) - 0.5
    }
}

/// The corners' weights for fractions `a` (in 256ths) along `dims` dimensions, corner `k`'s bit
/// `d` set for the upper texel along `d`. In two dimensions they are 256ths: the upper corner's is
/// `a0 * a1 / 256` rounded to nearest (halves up) and the others what is left of their row and
/// column, so that they sum to 256 (an H200's: rounding each product alone differs where two of
/// them are halves). In three, 256ths too (an H200's corner weights are; summing to 256): first
/// the x-z plane, whose two corners upper in x are their products rounded to nearest (halves up),
/// `a0 * a2 / 256` and `a0 * (256 - a2) / 256`, the corner upper in z only `a2` less the first,
/// the lower one the rest; then each of those four weights `v` split along y, `v * a1 / 256` to
/// the upper row rounded to nearest with halves up where the corner is upper in x and down where
/// it is lower, the rest to the lower row (calibration/run/bench15/tex3probe.cu: all 8,192
/// samples' eight weights equal the H200's; the earlier rule, the 2-D rule over x and z and every
/// split's halves up, 7,839).
fn corner_weights(dims: usize, a: [u32; 3]) -> [f64; 8] {
    let mut w = [0u32; 8];
    match dims {
        1 => {
            w[0] = 256 - a[0];
            w[1] = a[0];
        }
        2 => {
            let both = (a[0] * a[1] + 128) / 256;
            w[3] = both;
            w[1] = a[0] - both;
            w[2] = a[1] - both;
            w[0] = 256 + both - a[0] - a[1];
        }
        _ => {
            // the x-z plane's four weights (corner bits 0 and 2), each split along y (bit 1)
            let both = (a[0] * a[2] + 128) / 256;
            let x_only = (a[0] * (256 - a[2]) + 128) / 256;
            let xz = [
                (0usize, 256 - x_only - a[2]),
                (1, x_only),
                (4, a[2] - both),
                (5, both),
            ];
            for (k, v) in xz {
                // a half goes up where the corner is upper in x, down where it is lower
                let half = if k & 1 == 1 { 128 } else { 127 };
                let up = (v * a[1] + half) / 256;
                w[k | 2] = up;
                w[k] = v - up;
            }
        }
    }
    w.map(|x| f64::from(x) / 256.0)
}

/// The filtered value of texels `t` under `weights`: their exact weighted sum rounded once
/// to the nearest float, halves away from zero (an H200's, bit for bit: texwrap.cu); zero when
/// it is zero (negative when every texel is), NaN or infinity as float arithmetic gives them.
fn filter(weights: &[f64], t: &[f32]) -> f32 {
    if t.iter().any(|v| !v.is_finite()) {
        let mut acc = -0f32;
        for (&w, &v) in weights.iter().zip(t) {
            acc += w as f32 * v;
        }
        return acc;
    }
    // each product is exact in a double; their sum exact as non-overlapping doubles
    let mut parts: Vec<f64> = Vec::with_capacity(4);
    for (&w, &v) in weights.iter().zip(t) {
        let mut x = f64::from(v) * w;
        let mut kept = 0;
        for k in 0..parts.len() {
            let mut y = parts[k];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                parts[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        parts.truncate(kept);
        if x != 0.0 {
            parts.push(x);
        }
    }
    let Some(&hi) = parts.last() else {
        return if t.iter().all(|v| v.is_sign_negative()) {
            -0.0
        } else {
            0.0
        };
    };
    // the rest's sign against hi's: it decides a tie of hi's own bits
    let rest = parts
        .len()
        .checked_sub(2)
        .map_or(0, |k| if (parts[k] < 0.0) == (hi < 0.0) { 1 } else { -1 });
    round_away(hi, rest)
}

/// `hi + rest` rounded to the nearest float, halves away from zero, where `rest` is smaller than
/// `hi`'s last place and only its sign is given (`1`: the same as `hi`'s, `-1`: the other, `0`: none).
fn round_away(hi: f64, rest: i32) -> f32 {
    let bits = hi.to_bits();
    let neg = bits >> 63 == 1;
    let ex = ((bits >> 52) & 0x7ff) as i32;
    let (m, e) = if ex == 0 {
        (bits & ((1 << 52) - 1), -1074)
    } else {
        (bits & ((1 << 52) - 1) | 1 << 52, ex - 1075)
    };
    let lead = e + 63 - m.leading_zeros() as i32;
    // the float's last place: 23 bits below the leading one, at least 2^-149
    let q = (lead - 23).max(-149);
    let sh = q - e;
    let (keep, up) = if sh <= 0 {
        (m << -sh, false)
    } else if sh >= 64 {
        (0, false)
    } else {
        let rem = m & ((1u64 << sh) - 1);
        let half = 1u64 << (sh - 1);
        (m >> sh, rem > half || (rem == half && rest >= 0))
    };
    let v = (keep + u64::from(up)) as f64 * 2f64.powi(q);
    let v = v as f32;
    if neg { -v } else { v }
}

impl Texture {
    /// A 2-D texture gather (`tld4`, `tex2Dgather`): channel `comp` of the four texels that linear
    /// filtering at `coords` weighs, in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0) — i the
    /// column, j the row, 0 the lower index — each under the address modes; whatever the filter
    /// mode.
    pub fn gather(&self, g: &dyn Texels, comp: usize, coords: [f32; 3]) -> Option<[u32; 4]> {
        let mut lo = [0i64; 2];
        for (d, l) in lo.iter_mut().enumerate() {
            let u = if self.normalized {
                coords[d] * self.size[d] as f32
            } else {
                coords[d]
            };
            *l = (u - 0.5).floor() as i64;
        }
        let mut out = [0u32; 4];
        for (k, (di, dj)) in [(0, 1), (1, 1), (1, 0), (0, 0)].into_iter().enumerate() {
            let i = [self.index(0, lo[0] + di), self.index(1, lo[1] + dj), 0];
            out[k] = self.texel(g, i)?[comp];
        }
        Some(out)
    }
}

/// Where a surface access of `access` bytes at byte column `c[0]`, row `c[1]`, slice `c[2]` of
/// surface `t` (a texture object's layout) lands: `None` when the surface is unusable,
/// `Some(Err(()))` for a column that is not a multiple of the access size, `Some(Ok(None))` for an
/// access outside the surface in zero mode (`mode` 2: reads 0, writes nothing), `Some(Ok(Some(a)))`
/// the global address. Outside the surface, trap mode (0) is `None` (the launch faults) and clamp
/// mode (1) moves the access to the nearest element inside.
pub fn surface_address(t: &Texture, c: [i64; 3], access: u64, mode: u8) -> Option<Result<Option<u64>, ()>> {
    let row = i64::from(t.size[0]) * i64::from(t.channels) * i64::from(t.bits / 8);
    let access = access as i64;
    if access == 0 || access > row {
        return None;
    }
    if c[0].rem_euclid(access) != 0 {
        return Some(Err(()));
    }
    let lim = [row - access, i64::from(t.size[1]) - 1, i64::from(t.size[2]) - 1];
    let inside = (0..3).all(|k| (0..=lim[k]).contains(&c[k]));
    let c = if inside {
        c
    } else {
        match mode {
            0 => return None,
            2 => return Some(Ok(None)),
            _ => [
                c[0].clamp(0, lim[0]),
                c[1].clamp(0, lim[1]),
                c[2].clamp(0, lim[2]),
            ],
        }
    };
    let r = c[2] as u64 * u64::from(t.size[1]) + c[1] as u64;
    Some(Ok(Some(t.base + r * t.pitch + c[0] as u64)))
}

/// A half float's value as an `f32`'s bits: exact (subnormals included; infinities and NaNs keep
/// their sign and payload, as the H100's texture unit returns them).
fn half_to_f32(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10) & 31;
    let man = u32::from(h) & 1023;
    match exp {
        0 => sign | (man as f32 * (1.0 / 16_777_216.0)).to_bits(),
        31 => sign | 0x7f80_0000 | (man << 13),
        e => sign | ((e + 112) << 23) | (man << 13),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes at an address: the texels' memory.
    struct Mem {
        base: u64,
        bytes: Vec<u8>,
    }

    impl Texels for Mem {
        fn read(&self, addr: u64, n: u64) -> Option<u64> {
            let off = usize::try_from(addr.checked_sub(self.base)?).ok()?;
            let b = self.bytes.get(off..off + n as usize)?;
            let mut v = [0u8; 8];
            v[..b.len()].copy_from_slice(b);
            Some(u64::from_le_bytes(v))
        }
    }

    fn tex(values: &[f32], w: u32, h: u32) -> (Mem, Texture) {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let g = Mem { base: 0x1000, bytes };
        let t = Texture {
            base: 0x1000,
            pitch: u64::from(w) * 4,
            size: [w, h, 1],
            channels: 1,
            bits: 32,
            format: Format::Float,
            normalized_read: false,
            address: [Address::Clamp; 3],
            linear: false,
            normalized: false,
        };
        (g, t)
    }

    #[test]
    fn narrow_channels_convert_as_the_h100_returned_them() {
        // figures from calibration/run/h100/textures8.stdout
        let (_, mut t) = tex(&[0.0], 1, 1);
        t.bits = 8;
        t.format = Format::Unsigned;
        t.normalized_read = true;
        assert_eq!(t.convert(1), 0x3b80_8081);
        assert_eq!(t.convert(254), 0x3f7e_feff);
        t.format = Format::Signed;
        // texel 200 of "s8x4 norm": 200 - 256 = -56, 55, 120 and -128 (clamped to -1)
        assert_eq!(
            [200, 55, 120, 128].map(|v| t.convert(v)),
            [0xbee1_c387, 0x3edd_bb77, 0x3f71_e3c8, 0xbf80_0000]
        );
        t.normalized_read = false;
        assert_eq!([200, 55].map(|v| t.convert(v)), [0xffff_ffc8, 0x37]);
        t.bits = 16;
        t.normalized_read = true;
        assert_eq!(t.convert(51400), 0xbedc_e1ba);
        t.format = Format::Unsigned;
        assert_eq!(t.convert(1802), 0x3ce1_40e1);
        t.format = Format::Float;
        assert_eq!(t.convert(0x3f03), 0x3fe0_6000);
        assert_eq!(t.convert(0xbe82), 0xbfd0_4000);
        // a signalling NaN keeps its payload; a subnormal is exact
        assert_eq!(t.convert(0x7c40), 0x7f88_0000);
        assert_eq!(f32::from_bits(t.convert(0x0001)), 2f32.powi(-24));
    }

    #[test]
    fn surface_accesses_land_in_bytes_and_obey_the_boundary_mode() {
        // 4 texels of 4 floats (16 bytes) per row, 2 rows
        let (_, mut t) = tex(&[0.0; 32], 4, 2);
        t.channels = 4;
        t.pitch = 64;
        let at = |c: [i64; 3], mode| surface_address(&t, c, 16, mode);
        assert_eq!(at([48, 1, 0], 0), Some(Ok(Some(0x1000 + 64 + 48))));
        // outside: trap faults, zero reads 0 / drops the write, clamp takes the nearest element
        assert_eq!(at([64, 0, 0], 0), None);
        assert_eq!(at([-16, 0, 0], 2), Some(Ok(None)));
        assert_eq!(at([64, 5, 0], 1), Some(Ok(Some(0x1000 + 64 + 48))));
        assert_eq!(at([-32, -1, 0], 1), Some(Ok(Some(0x1000))));
        // a column that is not a multiple of the access
        assert_eq!(at([8, 0, 0], 0), Some(Err(())));
    }

    #[test]
    fn point_sampling_takes_the_texel_under_the_coordinate() {
        let (g, mut t) = tex(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 3, 2);
        let v = |t: &Texture, x: f32, y: f32| f32::from_bits(t.fetch(&g, 2, [x, y, 0.0]).unwrap()[0]);
        assert_eq!(v(&t, 1.5, 0.5), 2.0);
        assert_eq!(v(&t, 2.99, 1.2), 6.0);
        // texel coordinates clamp, even under wrap
        t.address = [Address::Wrap; 3];
        assert_eq!(v(&t, 7.0, 0.0), 3.0);
        // normalised coordinates wrap: x = 1.25 is texel 0.75 * 3 = 2.25 -> 2 ... after wrapping
        t.normalized = true;
        assert_eq!(v(&t, 1.25, 0.25), 1.0);
        assert_eq!(v(&t, 0.7, 0.75), 6.0);
        t.address = [Address::Border; 3];
        assert_eq!(v(&t, 1.2, 0.25), 0.0);
        t.address = [Address::Mirror; 3];
        assert_eq!(v(&t, 1.2, 0.25), 3.0);
    }

    #[test]
    fn linear_filtering_weighs_neighbours_with_eight_fraction_bits() {
        let (g, mut t) = tex(&[0.0, 1.0, 2.0, 3.0], 4, 1);
        t.linear = true;
        let v = |x: f32| f32::from_bits(t.fetch(&g, 1, [x, 0.0, 0.0]).unwrap()[0]);
        // texel centres are at i + 0.5
        assert_eq!(v(1.5), 1.0);
        assert_eq!(v(2.0), 1.5);
        // 1/3 of the way: the weight is 85/256, not 1/3
        assert_eq!(v(1.5 + 1.0 / 3.0), 1.0 + 85.0 / 256.0);
        // the edges clamp
        assert_eq!(v(0.0), 0.0);
        assert_eq!(v(9.0), 3.0);
    }

    // the rules below, from an H200's 15976 samples (calibration/run/gridspin/h200/texwrap.stdout)

    #[test]
    fn a_normalised_coordinate_is_cut_to_21_fraction_bits_before_it_is_scaled() {
        // v * 192 - 0.5 exactly has 129.50098 / 256 past texel 190: its weight would be 130
        let v = f32::from_bits(0x3f7e_acab);
        let exact = f64::from(v) * 192.0 - 0.5;
        assert_eq!(((exact - exact.floor()) * 256.0 + 0.5).floor(), 130.0);
        let x = filter_coordinate(v, 192, true);
        assert_eq!(x.floor(), 190.0);
        assert_eq!(((x - x.floor()) * 256.0 + 0.5).floor(), 129.0);
        // texel coordinates are taken as they are
        assert_eq!(filter_coordinate(3.25, 8, false), 2.75);
    }

    #[test]
    fn bilinear_weights_round_the_upper_corner_and_sum_to_one() {
        // a = 95/256, b = 128/256: products 80.5, 47.5, 80.5, 47.5; the H200 weighs 81, 47, 80, 48
        let w = corner_weights(2, [95, 128, 0]);
        assert_eq!(w[..4], [81.0 / 256.0, 47.0 / 256.0, 80.0 / 256.0, 48.0 / 256.0]);
        let w = corner_weights(2, [192, 22, 0]);
        assert_eq!(w[..4], [59.0 / 256.0, 175.0 / 256.0, 5.0 / 256.0, 17.0 / 256.0]);
        assert_eq!(corner_weights(1, [85, 0, 0])[..2], [171.0 / 256.0, 85.0 / 256.0]);
    }

    #[test]
    fn a_filtered_value_is_rounded_once_halves_away_from_zero() {
        let e = f32::EPSILON;
        // halfway between 1 and 1 + 2^-23 exactly: away from zero, either sign
        let (g, mut t) = tex(&[1.0, 1.0 + e, -1.0, -1.0 - e], 4, 1);
        t.linear = true;
        let v = |x: f32| f32::from_bits(t.fetch(&g, 1, [x, 0.0, 0.0]).unwrap()[0]);
        assert_eq!(v(1.0), 1.0 + e);
        assert_eq!(v(3.0), -1.0 - e);
        // 3/4 of 1 and 1/4 of 1 + 2^-23 is 1 + 2^-25: below the half, to 1; the other way round
        // above it
        assert_eq!(v(0.75), 1.0);
        assert_eq!(v(1.25), 1.0 + e);
        // one rounding of the exact sum: a small texel first, then two large ones that cancel
        // (float additions in corner order would lose it)
        let (g, mut t) = tex(&[3.0e-8, 1.0e8, -1.0e8, 0.0], 2, 2);
        t.linear = true;
        let r = f32::from_bits(t.fetch(&g, 2, [1.0, 1.0, 0.0]).unwrap()[0]);
        assert_eq!(r, 3.0e-8 / 4.0);
        // zero: negative only when every texel is
        let (g, mut t) = tex(&[-0.0, -0.0, 1.0, -1.0], 4, 1);
        t.linear = true;
        let v = |x: f32| t.fetch(&g, 1, [x, 0.0, 0.0]).unwrap()[0];
        assert_eq!(v(1.0), (-0.0f32).to_bits());
        assert_eq!(v(3.0), 0.0f32.to_bits());
    }

    #[test]
    fn trilinear_weights_are_256ths_split_from_the_x_z_plane_along_y() {
        // fractions (x, y, z) in 256ths and the eight weights an H200 gave
        // (calibration/run/bench15/h200/tex3probe.h200); corner k = x + 2y + 4z
        for (a, want) in [
            ([137, 83, 29], [72, 82, 34, 39, 9, 11, 4, 5]),
            ([209, 242, 112], [1, 6, 25, 112, 1, 5, 20, 86]),
            ([241, 67, 193], [3, 44, 1, 15, 8, 134, 3, 48]),
            ([89, 163, 1], [60, 32, 106, 57, 0, 0, 1, 0]),
        ] {
            let w = corner_weights(3, a);
            assert_eq!(w, want.map(|x: u32| f64::from(x) / 256.0), "{a:?}");
        }
        // halves the earlier rule (the 2-D rule over x and z, every split's half up) rounded
        // otherwise: a plane half (164 x 32 / 256 = 20.5: corner 1 gets one more, corner 0 one
        // less) and split halves on both sides of x (42 x 192 / 256 = 31.5 goes down at corner
        // 4; 87 x 128 / 256 = 43.5 down at corner 0)
        for (a, want) in [
            ([135, 192, 88], [20, 22, 59, 67, 11, 11, 31, 35]),
            ([164, 66, 32], [59, 107, 21, 37, 8, 16, 3, 5]),
            ([249, 64, 53], [5, 148, 1, 49, 1, 39, 0, 13]),
            ([47, 128, 150], [44, 9, 43, 10, 61, 14, 61, 14]),
        ] {
            let w = corner_weights(3, a);
            assert_eq!(w, want.map(|x: u32| f64::from(x) / 256.0), "{a:?}");
        }
    }
}
