//! CPU references for the lab's kernels, the random inputs and the output checks.

/// A small deterministic generator (SplitMix64) for random inputs; the seed is recorded in the output.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A float in [-1, 1).
    pub fn f32(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
    /// `n` floats in [-1, 1).
    pub fn vec_f32(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }
    /// `n` random i32.
    pub fn vec_i32(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| self.next_u64() as i32).collect()
    }
}

/// The bit pattern outputs are poisoned with before a run (a NaN for floats).
pub const POISON_BITS: u32 = 0x7FC0_DEAD;

/// Poison value as f32.
pub fn poison_f32() -> f32 {
    f32::from_bits(POISON_BITS)
}

/// Compares exactly (bitwise for floats); describes the first mismatch and the count.
pub fn first_mismatch<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("length {} where {} was expected", got.len(), want.len()));
    }
    let bad: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    bad.first().map(|&i| {
        format!(
            "{} of {} elements differ; first at {i}: got {:?}, want {:?}",
            bad.len(),
            got.len(),
            got[i],
            want[i]
        )
    })
}

/// Compares floats with a relative tolerance; NaN (the poison) never passes.
pub fn first_mismatch_f32(got: &[f32], want: &[f32], rel: f32) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("length {} where {} was expected", got.len(), want.len()));
    }
    let ok = |g: f32, w: f32| g.is_finite() && (g - w).abs() <= rel * w.abs().max(1.0);
    let bad: Vec<usize> = (0..got.len()).filter(|&i| !ok(got[i], want[i])).collect();
    bad.first().map(|&i| {
        format!(
            "{} of {} elements differ; first at {i}: got {}, want {}",
            bad.len(),
            got.len(),
            got[i],
            want[i]
        )
    })
}

/// Adjacent difference: `out[i] = in[i] - in[i-1]`, `out[0] = in[0]`.
pub fn adjdiff(input: &[f32]) -> Vec<f32> {
    (0..input.len())
        .map(|i| if i == 0 { input[0] } else { input[i] - input[i - 1] })
        .collect()
}

/// Transpose of a `rows x cols` row-major matrix (result is `cols x rows`).
pub fn transpose(input: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; input.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = input[r * cols + c];
        }
    }
    out
}

/// The shared-memory tile kernels of seed 000 as an index model: thread `(tx, ty)` of a block of
/// `bx x by` threads writes its input to tile slot `write_slot` and reads its output from
/// `read_slot`. The CPU reference follows from the model: output = the input of the thread that
/// wrote the slot read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileAccess {
    /// `tile[ty][tx]` written and read.
    RowRow,
    /// `tile[tx][ty]` written and read.
    ColCol,
    /// Written by rows, read by columns (square: `tile[tx][ty]`; rectangular: irow/icol).
    RowCol,
    /// Written by rows, read by columns, rows padded by `pad` words.
    RowColPad(u32),
}

impl TileAccess {
    /// (write slot, read slot) of thread `(tx, ty)`, in a tile of rows of `bx + pad` words.
    pub fn slots(self, tx: u32, ty: u32, bx: u32, by: u32) -> (u32, u32) {
        let idx = ty * bx + tx;
        let (irow, icol) = (idx / by, idx % by);
        match self {
            TileAccess::RowRow => (ty * bx + tx, ty * bx + tx),
            TileAccess::ColCol => (tx * by + ty, tx * by + ty),
            TileAccess::RowCol => (ty * bx + tx, icol * bx + irow),
            TileAccess::RowColPad(p) => (ty * (bx + p) + tx, icol * (bx + p) + irow),
        }
    }

    /// The expected output of `blocks` blocks from `input` (one element per thread).
    pub fn reference(self, input: &[i32], bx: u32, by: u32) -> Vec<i32> {
        let per = (bx * by) as usize;
        let mut out = vec![0; input.len()];
        for (b, chunk) in input.chunks(per).enumerate() {
            let mut writer = std::collections::HashMap::new();
            for ty in 0..by {
                for tx in 0..bx {
                    writer.insert(self.slots(tx, ty, bx, by).0, (ty * bx + tx) as usize);
                }
            }
            for ty in 0..by {
                for tx in 0..bx {
                    let r = self.slots(tx, ty, bx, by).1;
                    out[b * per + (ty * bx + tx) as usize] = chunk[writer[&r]];
                }
            }
        }
        out
    }
}

/// Seed 002's kernels: the value each thread writes (`a` or `b` branch).
pub fn math_kernel(tid: u32, warp_branch: bool) -> f32 {
    let even = if warp_branch {
        (tid / 32).is_multiple_of(2)
    } else {
        tid.is_multiple_of(2)
    };
    if even { 100.0 } else { 200.0 }
}

/// The stream kernel: from `v = 0`, `iters` times `v = fma(v, 0.5, x / 2)`. The iteration reaches a
/// fixed point after a few dozen steps; the loop stops there, which gives the same value as running
/// all `iters` steps.
pub fn stream_kernel(x: f32, iters: u32) -> f32 {
    let h = 0.5 * x;
    let mut v = 0.0f32;
    for _ in 0..iters {
        let next = v.mul_add(0.5, h);
        if next == v {
            break;
        }
        v = next;
    }
    v
}

/// The register-hungry kernel for element `i` of `input`.
pub fn reg_hungry(input: &[f32], i: usize) -> f32 {
    let n = input.len();
    let a: Vec<f32> = (0..32).map(|k| input[(i + k * 977) % n]).collect();
    let mut s = 0.0f32;
    for r in 0..8 {
        for k in 0..32 {
            s = a[k].mul_add(a[(k + r + 1) % 32], s);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let a = Rng::new(7).vec_f32(1000);
        assert_eq!(a, Rng::new(7).vec_f32(1000));
        assert!(a.iter().all(|x| (-1.0..1.0).contains(x)));
        assert_ne!(a, Rng::new(8).vec_f32(1000));
    }

    #[test]
    fn poison_never_passes() {
        assert!(first_mismatch_f32(&[poison_f32()], &[1.0], 1e-3).is_some());
        assert!(first_mismatch_f32(&[1.0005], &[1.0], 1e-3).is_none());
        let m = first_mismatch(&[1, 2, 9], &[1, 2, 3]).unwrap();
        assert!(m.contains("first at 2"), "{m}");
    }

    #[test]
    fn adjdiff_and_transpose() {
        assert_eq!(adjdiff(&[1.0, 4.0, 9.0]), [1.0, 3.0, 5.0]);
        assert_eq!(
            transpose(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2, 3),
            [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
        );
    }

    #[test]
    fn square_row_col_is_a_transpose_of_the_block() {
        let input: Vec<i32> = (0..1024).collect();
        let out = TileAccess::RowCol.reference(&input, 32, 32);
        // Thread (tx, ty) reads what thread (ty, tx) wrote.
        assert_eq!(out[1], 32);
        assert_eq!(out[32 * 5 + 3], 3 * 32 + 5);
        // Padding changes the addresses, not the result.
        assert_eq!(TileAccess::RowColPad(1).reference(&input, 32, 32), out);
        assert_eq!(TileAccess::RowRow.reference(&input, 32, 32), input);
        assert_eq!(TileAccess::ColCol.reference(&input, 32, 32), input);
    }

    #[test]
    fn rectangular_row_col_uses_irow_icol() {
        let input: Vec<i32> = (0..512).collect();
        let out = TileAccess::RowCol.reference(&input, 32, 16);
        // idx 1: irow 0, icol 1 -> reads slot 1*32+0 = 32, written by thread idx 32.
        assert_eq!(out[1], 32);
        assert_eq!(TileAccess::RowColPad(2).reference(&input, 32, 16), out);
        // Two blocks are independent.
        let two: Vec<i32> = (0..1024).collect();
        assert_eq!(TileAccess::RowCol.reference(&two, 32, 16)[512 + 1], 512 + 32);
    }

    #[test]
    fn stream_and_register_kernels() {
        assert_eq!(stream_kernel(1.0, 0), 0.0);
        assert_eq!(stream_kernel(1.0, 1), 0.5);
        // The early stop equals the full loop.
        for x in [0.3f32, -0.7, 0.999, 1e-3] {
            let full = (0..5000).fold(0.0f32, |v, _| v.mul_add(0.5, 0.5 * x));
            assert_eq!(stream_kernel(x, 5000), full);
            assert!((stream_kernel(x, 5000) - x).abs() <= x.abs() * 1e-6);
        }
        let x: Vec<f32> = (0..2000).map(|i| i as f32 * 1e-3).collect();
        let want: f32 = (0..8)
            .flat_map(|r| (0..32).map(move |k| (r, k)))
            .fold(0.0, |s, (r, k)| {
                x[(k * 977) % 2000].mul_add(x[((k + r + 1) % 32) * 977 % 2000], s)
            });
        assert_eq!(reg_hungry(&x, 0), want);
    }

    #[test]
    fn divergence_reference() {
        assert_eq!(math_kernel(0, false), 100.0);
        assert_eq!(math_kernel(1, false), 200.0);
        assert_eq!(math_kernel(31, true), 100.0);
        assert_eq!(math_kernel(32, true), 200.0);
    }
}
