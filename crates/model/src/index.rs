//! Global thread IDs: the CUDA C formula for each of the nine grid x block shapes (1D/2D/3D grid of
//! 1D/2D/3D blocks, as in the seed notes), the same formula evaluated here, and a check that a launch's
//! IDs are unique and dense (exactly 0..threads-1).
//!
//! ```
//! use warpscope_model::index::{Dim3, Shape, check};
//!
//! let shape = Shape::for_launch(Dim3::new(4, 2, 1), Dim3::new(8, 8, 1));
//! assert_eq!(shape.name(), "2D_2D");
//! let report = check(shape, Dim3::new(4, 2, 1), Dim3::new(8, 8, 1)).unwrap();
//! assert!(report.is_unique_and_dense());
//! ```

use std::fmt;

/// A (x, y, z) extent or index, as `dim3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// x.
    pub x: u32,
    /// y.
    pub y: u32,
    /// z.
    pub z: u32,
}

impl Dim3 {
    /// A `dim3`.
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// x * y * z.
    pub fn volume(&self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }

    /// 1, 2 or 3: the highest dimension above 1 (1 for 1x1x1).
    pub fn rank(&self) -> u8 {
        if self.z > 1 {
            3
        } else if self.y > 1 {
            2
        } else {
            1
        }
    }

    /// Parses `x`, `x,y` or `x,y,z` (also with `x` as separator).
    pub fn parse(text: &str) -> Result<Dim3, String> {
        let parts: Vec<&str> = text.split([',', 'x']).map(str::trim).collect();
        if parts.is_empty() || parts.len() > 3 {
            return Err(format!("`{text}`: expected x, x,y or x,y,z"));
        }
        let mut v = [1u32; 3];
        for (i, p) in parts.iter().enumerate() {
            v[i] = p
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("`{text}`: `{p}` is not a positive integer"))?;
        }
        Ok(Dim3::new(v[0], v[1], v[2]))
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

/// A grid rank and a block rank (each 1 to 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Dimensions of the grid the formula uses.
    pub grid: u8,
    /// Dimensions of the block the formula uses.
    pub block: u8,
}

impl Shape {
    /// All nine shapes, 1D_1D first.
    pub fn all() -> Vec<Shape> {
        (1..=3)
            .flat_map(|g| (1..=3).map(move |b| Shape { grid: g, block: b }))
            .collect()
    }

    /// The smallest shape that covers a launch.
    pub fn for_launch(grid: Dim3, block: Dim3) -> Shape {
        Shape {
            grid: grid.rank(),
            block: block.rank(),
        }
    }

    /// Parses `2D_3D` (grid_block), also `2d3d` or `2,3`.
    pub fn parse(text: &str) -> Result<Shape, String> {
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| c.is_ascii_digit())
            .map(|c| c as u8 - b'0')
            .collect();
        match digits.as_slice() {
            [g, b] if (1..=3).contains(g) && (1..=3).contains(b) => Ok(Shape { grid: *g, block: *b }),
            _ => Err(format!("`{text}`: expected a shape like 1D_1D, 2D_3D, 3D_2D")),
        }
    }

    /// `1D_1D` ... `3D_3D`.
    pub fn name(&self) -> String {
        format!("{}D_{}D", self.grid, self.block)
    }

    /// The block's linear index within the grid, in CUDA C.
    pub fn block_id_expr(&self) -> &'static str {
        match self.grid {
            1 => "blockIdx.x",
            2 => "blockIdx.y * gridDim.x + blockIdx.x",
            _ => "blockIdx.z * (gridDim.x * gridDim.y) + blockIdx.y * gridDim.x + blockIdx.x",
        }
    }

    /// Threads per block, in CUDA C.
    pub fn block_size_expr(&self) -> &'static str {
        match self.block {
            1 => "blockDim.x",
            2 => "(blockDim.x * blockDim.y)",
            _ => "(blockDim.x * blockDim.y * blockDim.z)",
        }
    }

    /// The thread's linear index within its block, in CUDA C.
    pub fn thread_in_block_expr(&self) -> &'static str {
        match self.block {
            1 => "threadIdx.x",
            2 => "threadIdx.y * blockDim.x + threadIdx.x",
            _ => "threadIdx.z * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x",
        }
    }

    /// A complete `__device__` function computing the global ID, in CUDA C.
    pub fn cuda_function(&self) -> String {
        format!(
            "__device__ int getGlobalIdx_{name}()\n{{\n    int blockId  = {b};\n    int threadId = blockId * {s}\n                 + {t};\n    return threadId;\n}}\n",
            name = self.name(),
            b = self.block_id_expr(),
            s = self.block_size_expr(),
            t = self.thread_in_block_expr(),
        )
    }

    /// The formula evaluated for one thread (it reads only the dimensions the shape names, exactly
    /// as the CUDA C does).
    pub fn global_id(&self, grid: Dim3, block: Dim3, block_idx: Dim3, thread_idx: Dim3) -> u64 {
        let (gx, gy) = (u64::from(grid.x), u64::from(grid.y));
        let (bx, by, bz) = (u64::from(block.x), u64::from(block.y), u64::from(block.z));
        let block_id = match self.grid {
            1 => u64::from(block_idx.x),
            2 => u64::from(block_idx.y) * gx + u64::from(block_idx.x),
            _ => u64::from(block_idx.z) * gx * gy + u64::from(block_idx.y) * gx + u64::from(block_idx.x),
        };
        let (size, t) = match self.block {
            1 => (bx, u64::from(thread_idx.x)),
            2 => (bx * by, u64::from(thread_idx.y) * bx + u64::from(thread_idx.x)),
            _ => (
                bx * by * bz,
                u64::from(thread_idx.z) * bx * by + u64::from(thread_idx.y) * bx + u64::from(thread_idx.x),
            ),
        };
        block_id * size + t
    }
}

/// A thread: (blockIdx, threadIdx).
pub type ThreadAt = (Dim3, Dim3);

/// What enumerating a launch found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Threads launched.
    pub threads: u64,
    /// Distinct IDs seen.
    pub distinct: u64,
    /// IDs given to more than one thread.
    pub duplicated: u64,
    /// IDs outside 0..threads.
    pub out_of_range: u64,
    /// The first collision: (id, first block/thread, second block/thread).
    pub first_collision: Option<(u64, ThreadAt, ThreadAt)>,
}

impl CheckReport {
    /// Every thread got its own ID and the IDs are exactly 0..threads.
    pub fn is_unique_and_dense(&self) -> bool {
        self.duplicated == 0 && self.out_of_range == 0 && self.distinct == self.threads
    }
}

/// Launches above this many threads are refused by [`check`] (the bitmap would be too large).
pub const CHECK_MAX_THREADS: u64 = 1 << 32;

/// Enumerates every thread of `grid` x `block`, evaluates `shape`'s formula, and counts collisions and
/// gaps.
pub fn check(shape: Shape, grid: Dim3, block: Dim3) -> Result<CheckReport, String> {
    let n = grid.volume() * block.volume();
    if n > CHECK_MAX_THREADS {
        return Err(format!(
            "{n} threads: --check enumerates at most {CHECK_MAX_THREADS}"
        ));
    }
    let mut seen = vec![0u64; n.div_ceil(64) as usize];
    let mut report = CheckReport {
        threads: n,
        distinct: 0,
        duplicated: 0,
        out_of_range: 0,
        first_collision: None,
    };
    for bz in 0..grid.z {
        for by in 0..grid.y {
            for bx in 0..grid.x {
                let b = Dim3::new(bx, by, bz);
                for tz in 0..block.z {
                    for ty in 0..block.y {
                        for tx in 0..block.x {
                            let t = Dim3::new(tx, ty, tz);
                            let id = shape.global_id(grid, block, b, t);
                            if id >= n {
                                report.out_of_range += 1;
                                continue;
                            }
                            let (w, bit) = ((id / 64) as usize, id % 64);
                            if seen[w] >> bit & 1 == 1 {
                                report.duplicated += 1;
                                if report.first_collision.is_none() {
                                    // The first thread with this ID, found again (once).
                                    let first = find_owner(shape, grid, block, id).unwrap_or((b, t));
                                    report.first_collision = Some((id, first, (b, t)));
                                }
                            } else {
                                seen[w] |= 1 << bit;
                                report.distinct += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(report)
}

fn find_owner(shape: Shape, grid: Dim3, block: Dim3, id: u64) -> Option<ThreadAt> {
    for bz in 0..grid.z {
        for by in 0..grid.y {
            for bx in 0..grid.x {
                for tz in 0..block.z {
                    for ty in 0..block.y {
                        for tx in 0..block.x {
                            let (b, t) = (Dim3::new(bx, by, bz), Dim3::new(tx, ty, tz));
                            if shape.global_id(grid, block, b, t) == id {
                                return Some((b, t));
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_is_unique_and_dense_on_its_own_launch() {
        let dims = [Dim3::new(5, 1, 1), Dim3::new(3, 4, 1), Dim3::new(2, 3, 4)];
        for s in Shape::all() {
            let grid = dims[usize::from(s.grid) - 1];
            let block = dims[usize::from(s.block) - 1];
            assert_eq!(Shape::for_launch(grid, block), s);
            let r = check(s, grid, block).unwrap();
            assert!(r.is_unique_and_dense(), "{} {r:?}", s.name());
            assert_eq!(r.threads, grid.volume() * block.volume());
        }
    }

    #[test]
    fn a_too_small_shape_collides() {
        // The 1D_1D formula on a 2D grid ignores blockIdx.y: blocks (0,0) and (0,1) collide.
        let r = check(
            Shape { grid: 1, block: 1 },
            Dim3::new(2, 2, 1),
            Dim3::new(32, 1, 1),
        )
        .unwrap();
        assert!(!r.is_unique_and_dense());
        assert_eq!(r.distinct, 64);
        assert_eq!(r.duplicated, 64);
        let (id, first, second) = r.first_collision.unwrap();
        assert_eq!(id, 0);
        assert_eq!(first, (Dim3::new(0, 0, 0), Dim3::new(0, 0, 0)));
        assert_eq!(second, (Dim3::new(0, 1, 0), Dim3::new(0, 0, 0)));
    }

    #[test]
    fn formulas_read_like_the_seed() {
        let s = Shape { grid: 2, block: 2 };
        let f = s.cuda_function();
        assert!(f.contains("getGlobalIdx_2D_2D"));
        assert!(f.contains("blockIdx.y * gridDim.x + blockIdx.x"));
        assert!(f.contains("(blockDim.x * blockDim.y)"));
        assert!(f.contains("threadIdx.y * blockDim.x + threadIdx.x"));
        // 1D_1D: blockIdx.x * blockDim.x + threadIdx.x
        let one = Shape { grid: 1, block: 1 };
        assert_eq!(
            one.global_id(
                Dim3::new(4, 1, 1),
                Dim3::new(32, 1, 1),
                Dim3::new(3, 0, 0),
                Dim3::new(5, 0, 0)
            ),
            101
        );
        assert_eq!(Shape::parse("3D_2D").unwrap(), Shape { grid: 3, block: 2 });
        assert!(Shape::parse("4D_1D").is_err());
        assert_eq!(Dim3::parse("4,2").unwrap(), Dim3::new(4, 2, 1));
        assert!(Dim3::parse("0,2").is_err());
    }
}
