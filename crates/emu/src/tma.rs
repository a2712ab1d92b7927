//! Tensor maps and the tensor memory accelerator (TMA) of sm_90: the 128-byte tensor map object
//! in warpscope's own format (the runtime's `cuTensorMapEncodeTiled`/`cuTensorMapEncodeIm2col`
//! write it, `tensormap.replace` edits it, the TMA instructions read it), the driver's argument
//! rules, and the element walk of a box: which global element lands at which shared byte (the
//! swizzle), which elements are out of bounds and what fills them.
//!
//! The format (little-endian; everything else of the 128 bytes is zero):
//!
//! | bytes | field |
//! |---|---|
//! | 0-3 | magic `WSTM` (0x4d54_5357) |
//! | 4 | layout: 0 tiled, 1 im2col |
//! | 5 | rank (1-5) |
//! | 6 | element type (`CUtensorMapDataType`, 0-15) |
//! | 7 | interleave (`CUtensorMapInterleave`: 0 none, 1 16B, 2 32B) |
//! | 8 | swizzle (`CUtensorMapSwizzle`: 0 none, 1 32B, 2 64B, 3 128B, 4-6 the 128B atom variants) |
//! | 9 | L2 promotion (0-3) |
//! | 10 | out-of-bounds fill (0 zero, 1 NaN-request-zero-FMA) |
//! | 12-13 | im2col: channels per pixel |
//! | 14-15 | im2col: pixels per column |
//! | 16-23 | global address |
//! | 24-43 | global dimensions (5 × u32, elements) |
//! | 48-79 | global strides of dimensions 1-4 (4 × u64, bytes) |
//! | 80-89 | box dimensions (5 × u16; im2col: only dimension 0 and the pixels matter) |
//! | 90-94 | element strides (5 × u8) |
//! | 96-101 | im2col: the pixel box's lower corner (3 × i16, W, H, D) |
//! | 102-107 | im2col: the pixel box's upper corner (3 × i16) |

/// Bytes of a tensor map object.
pub const MAP_BYTES: usize = 128;
/// The first four bytes of a warpscope tensor map ("WSTM").
pub const MAGIC: u32 = 0x4d54_5357;

/// Element sizes of `CUtensorMapDataType` 0-12 in bytes (13-15 are packed 4- and 6-bit types).
const ELEM_BYTES: [u8; 13] = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4];
/// `CUtensorMapDataType` names, for messages.
const TYPE_NAMES: [&str; 16] = [
    "UINT8",
    "UINT16",
    "UINT32",
    "INT32",
    "UINT64",
    "INT64",
    "FLOAT16",
    "FLOAT32",
    "FLOAT64",
    "BFLOAT16",
    "FLOAT32_FTZ",
    "TFLOAT32",
    "TFLOAT32_FTZ",
    "16U4_ALIGN8B",
    "16U4_ALIGN16B",
    "16U6_ALIGN16B",
];

/// Why a tensor-memory-access instruction cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmaFault {
    /// The tensor map operand names memory that holds no tensor map (not one made by
    /// `cuTensorMapEncode*`, or not readable: a tensor map lives in parameter, constant or global
    /// memory).
    NotAMap,
    /// The instruction's dimension count (`.Nd`) is not the map's rank.
    Rank,
    /// A `.tile` instruction on an im2col map or the reverse.
    Layout,
    /// The reduction does not take the map's element type.
    ReduceType,
    /// The shared-memory address is not 128-byte aligned.
    SharedAlign,
    /// An interleaved map (`CU_TENSOR_MAP_INTERLEAVE_16B`/`32B`): not modelled.
    Interleave,
}

impl TmaFault {
    /// The reason, as a sentence fragment.
    pub fn describe(self) -> &'static str {
        match self {
            TmaFault::NotAMap => {
                "the tensor map operand holds no tensor map (make one with cuTensorMapEncodeTiled/Im2col; it lives in parameter, constant or global memory)"
            }
            TmaFault::Rank => "the instruction's dimension count is not the tensor map's rank",
            TmaFault::Layout => {
                "a .tile instruction on an im2col tensor map or an .im2col one on a tiled map"
            }
            TmaFault::ReduceType => "the reduction does not take the tensor map's element type",
            TmaFault::SharedAlign => "the shared-memory address is not 128-byte aligned",
            TmaFault::Interleave => {
                "interleaved tensor maps (CU_TENSOR_MAP_INTERLEAVE_16B/32B) are not supported yet"
            }
        }
    }
}

/// How the map walks the tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A box of elements (`cuTensorMapEncodeTiled`).
    Tiled,
    /// Pixels of a convolution's input (`cuTensorMapEncodeIm2col`).
    Im2col,
}

/// A decoded tensor map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// Tiled or im2col.
    pub layout: Layout,
    /// Dimensions (1-5).
    pub rank: u8,
    /// `CUtensorMapDataType`.
    pub dtype: u8,
    /// `CUtensorMapInterleave`.
    pub interleave: u8,
    /// `CUtensorMapSwizzle`.
    pub swizzle: u8,
    /// `CUtensorMapL2promotion` (no effect here).
    pub l2: u8,
    /// `CUtensorMapFloatOOBfill`.
    pub fill: u8,
    /// Global address of element 0.
    pub address: u64,
    /// Elements per dimension.
    pub dims: [u32; 5],
    /// Byte strides of dimensions 1-4.
    pub strides: [u64; 4],
    /// Box size per dimension (tiled), elements traversed.
    pub boxes: [u16; 5],
    /// Traversal step per dimension.
    pub estrides: [u8; 5],
    /// im2col: channels per pixel.
    pub channels: u16,
    /// im2col: pixels per column.
    pub pixels: u16,
    /// im2col: lower corner of the pixel box (W, H, D).
    pub lower: [i16; 3],
    /// im2col: upper corner of the pixel box.
    pub upper: [i16; 3],
}

fn le<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut o = [0u8; N];
    o.copy_from_slice(&b[at..at + N]);
    o
}

impl TensorMap {
    /// The 128 bytes of the map.
    pub fn to_bytes(&self) -> [u8; MAP_BYTES] {
        let mut b = [0u8; MAP_BYTES];
        b[0..4].copy_from_slice(&MAGIC.to_le_bytes());
        b[4] = u8::from(self.layout == Layout::Im2col);
        b[5] = self.rank;
        b[6] = self.dtype;
        b[7] = self.interleave;
        b[8] = self.swizzle;
        b[9] = self.l2;
        b[10] = self.fill;
        b[12..14].copy_from_slice(&self.channels.to_le_bytes());
        b[14..16].copy_from_slice(&self.pixels.to_le_bytes());
        b[16..24].copy_from_slice(&self.address.to_le_bytes());
        for i in 0..5 {
            b[24 + 4 * i..28 + 4 * i].copy_from_slice(&self.dims[i].to_le_bytes());
            b[80 + 2 * i..82 + 2 * i].copy_from_slice(&self.boxes[i].to_le_bytes());
            b[90 + i] = self.estrides[i];
        }
        for i in 0..4 {
            b[48 + 8 * i..56 + 8 * i].copy_from_slice(&self.strides[i].to_le_bytes());
        }
        for i in 0..3 {
            b[96 + 2 * i..98 + 2 * i].copy_from_slice(&self.lower[i].to_le_bytes());
            b[102 + 2 * i..104 + 2 * i].copy_from_slice(&self.upper[i].to_le_bytes());
        }
        b
    }

    /// Decodes and checks a map (what a TMA instruction reads).
    pub fn from_bytes(b: &[u8]) -> Result<TensorMap, String> {
        if b.len() < MAP_BYTES || u32::from_le_bytes(le(b, 0)) != MAGIC {
            return Err(
                "not a tensor map made by cuTensorMapEncodeTiled/Im2col (no warpscope tensor map header)"
                    .into(),
            );
        }
        let mut m = TensorMap {
            layout: if b[4] == 1 { Layout::Im2col } else { Layout::Tiled },
            rank: b[5],
            dtype: b[6],
            interleave: b[7],
            swizzle: b[8],
            l2: b[9],
            fill: b[10],
            address: u64::from_le_bytes(le(b, 16)),
            dims: [0; 5],
            strides: [0; 4],
            boxes: [0; 5],
            estrides: [0; 5],
            channels: u16::from_le_bytes(le(b, 12)),
            pixels: u16::from_le_bytes(le(b, 14)),
            lower: [0; 3],
            upper: [0; 3],
        };
        for i in 0..5 {
            m.dims[i] = u32::from_le_bytes(le(b, 24 + 4 * i));
            m.boxes[i] = u16::from_le_bytes(le(b, 80 + 2 * i));
            m.estrides[i] = b[90 + i];
        }
        for i in 0..4 {
            m.strides[i] = u64::from_le_bytes(le(b, 48 + 8 * i));
        }
        for i in 0..3 {
            m.lower[i] = i16::from_le_bytes(le(b, 96 + 2 * i));
            m.upper[i] = i16::from_le_bytes(le(b, 102 + 2 * i));
        }
        m.check()?;
        Ok(m)
    }

    /// Bytes of one element.
    pub fn elem_bytes(&self) -> u64 {
        u64::from(ELEM_BYTES.get(usize::from(self.dtype)).copied().unwrap_or(1))
    }

    /// Whether the element type is a floating-point one.
    pub fn is_float(&self) -> bool {
        is_float_type(self.dtype)
    }

    /// Elements the box holds along dimension `i` (tiled): `ceil(box / elementStride)`, the first
    /// dimension's stride ignored without interleave.
    pub fn box_count(&self, i: usize) -> u64 {
        u64::from(self.boxes[i]).div_ceil(u64::from(self.step(i)))
    }

    /// The traversal step along dimension `i`.
    pub fn step(&self, i: usize) -> u8 {
        if i == 0 && self.interleave == 0 {
            1
        } else {
            self.estrides[i].max(1)
        }
    }

    /// Bytes one box (tiled) or one column of pixels (im2col) fills in shared memory.
    pub fn box_bytes(&self) -> u64 {
        match self.layout {
            Layout::Tiled => {
                (0..usize::from(self.rank))
                    .map(|i| self.box_count(i))
                    .product::<u64>()
                    * self.elem_bytes()
            }
            Layout::Im2col => u64::from(self.channels) * u64::from(self.pixels) * self.elem_bytes(),
        }
    }

    /// The byte stride of dimension `i` (dimension 0: the element size).
    pub fn stride(&self, i: usize) -> u64 {
        if i == 0 {
            self.elem_bytes()
        } else {
            self.strides[i - 1]
        }
    }

    /// The rules `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col` check (the driver answers
    /// `CUDA_ERROR_INVALID_VALUE` when one fails); the reason as text.
    pub fn check(&self) -> Result<(), String> {
        let r = usize::from(self.rank);
        if usize::from(self.dtype) >= TYPE_NAMES.len() {
            return Err(format!(
                "tensorDataType {} is not a CUtensorMapDataType",
                self.dtype
            ));
        }
        if self.dtype >= 13 {
            return Err(format!(
                "tensorDataType CU_TENSOR_MAP_DATA_TYPE_{} (packed sub-byte elements) is not supported",
                TYPE_NAMES[usize::from(self.dtype)]
            ));
        }
        if self.interleave > 2 {
            return Err(format!(
                "interleave {} is not a CUtensorMapInterleave",
                self.interleave
            ));
        }
        if self.swizzle > 6 {
            return Err(format!("swizzle {} is not a CUtensorMapSwizzle", self.swizzle));
        }
        if self.swizzle >= 4 {
            // the H100/H200 driver refuses them (calibration/tma)
            return Err(format!(
                "swizzle {} (a 128B atom mode) needs sm_100; sm_90 takes NONE, 32B, 64B and 128B",
                self.swizzle
            ));
        }
        if self.l2 > 3 {
            return Err(format!("l2Promotion {} is not a CUtensorMapL2promotion", self.l2));
        }
        if self.fill > 1 {
            return Err(format!("oobFill {} is not a CUtensorMapFloatOOBfill", self.fill));
        }
        let min_rank = if self.layout == Layout::Im2col || self.interleave != 0 {
            3
        } else {
            1
        };
        if r < min_rank || r > 5 {
            return Err(if self.layout == Layout::Im2col {
                format!("tensorRank {r}: im2col maps have 3 to 5 dimensions")
            } else if self.interleave != 0 {
                format!("tensorRank {r}: an interleaved map has 3 to 5 dimensions")
            } else {
                format!("tensorRank {r}: a tensor map has 1 to 5 dimensions")
            });
        }
        let align = if self.interleave == 2 { 32 } else { 16 };
        if !self.address.is_multiple_of(align) {
            return Err(format!(
                "globalAddress {:#x} is not {align}-byte aligned",
                self.address
            ));
        }
        for i in 0..r {
            if self.dims[i] == 0 {
                return Err(format!("globalDim[{i}] is 0"));
            }
        }
        for i in 0..r - 1 {
            let s = self.strides[i];
            if !s.is_multiple_of(align) || s >= 1 << 40 {
                return Err(format!(
                    "globalStrides[{i}] = {s} is not a multiple of {align} below 2^40"
                ));
            }
        }
        for i in 0..r {
            let e = self.estrides[i];
            if e == 0 || e > 8 {
                return Err(format!("elementStrides[{i}] = {e} is not 1 to 8"));
            }
        }
        if self.fill == 1 && !self.is_float() {
            return Err(format!(
                "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point element type, not {}",
                TYPE_NAMES[usize::from(self.dtype)]
            ));
        }
        let esz = self.elem_bytes();
        let inner = match self.layout {
            Layout::Tiled => {
                for i in 0..r {
                    let b = self.boxes[i];
                    if b == 0 || b > 256 {
                        return Err(format!("boxDim[{i}] = {b} is not 1 to 256"));
                    }
                }
                u64::from(self.boxes[0]) * esz
            }
            Layout::Im2col => {
                let c = self.channels;
                if c == 0 || c > 256 {
                    return Err(format!("channelsPerPixel = {c} is not 1 to 256"));
                }
                let p = self.pixels;
                if p == 0 || p > 1024 {
                    return Err(format!("pixelsPerColumn = {p} is not 1 to 1024"));
                }
                let lim: i16 = match r {
                    3 => i16::MAX,
                    4 => 127,
                    _ => 15,
                };
                for k in 0..r - 2 {
                    for (what, v) in [("Lower", self.lower[k]), ("Upper", self.upper[k])] {
                        if v > lim || v < -lim - 1 {
                            return Err(format!(
                                "pixelBox{what}Corner[{k}] = {v} is outside -{} to {lim} for rank {r}",
                                i32::from(lim) + 1
                            ));
                        }
                    }
                }
                u64::from(c) * esz
            }
        };
        if self.interleave == 0 && !inner.is_multiple_of(16) {
            return Err(format!(
                "the inner box dimension is {inner} bytes, not a multiple of 16"
            ));
        }
        if self.interleave == 2 && self.swizzle != 1 {
            return Err("interleave 32B needs swizzle 32B".into());
        }
        if self.interleave == 0 && self.swizzle != 0 {
            let span = swizzle_span(self.swizzle);
            if inner > span {
                return Err(format!(
                    "the inner box dimension is {inner} bytes, more than the {span}-byte swizzle span"
                ));
            }
        }
        Ok(())
    }
}

/// Whether `CUtensorMapDataType` `t` is a floating-point type.
pub fn is_float_type(t: u8) -> bool {
    matches!(t, 6..=12)
}

/// The bytes of a swizzle mode's span (the largest inner box row it takes).
pub fn swizzle_span(sw: u8) -> u64 {
    match sw {
        1 => 32,
        2 => 64,
        0 => u64::MAX,
        _ => 128,
    }
}

/// Where byte offset `a` (an address in the shared window) of a box lands under swizzle mode
/// `sw`: the 16-byte chunk index within each 32/64/128-byte row XOR the row index bits (bits 7
/// and up of the address), one, two or three bits for 32B, 64B and 128B. The 128B atom variants
/// move 32- or 64-byte granules.
pub fn swizzle(sw: u8, a: u64) -> u64 {
    match sw {
        1 => a ^ (((a >> 7) & 1) << 4),
        2 => a ^ (((a >> 7) & 3) << 4),
        3 => a ^ (((a >> 7) & 7) << 4),
        // 128B_ATOM_32B: 32-byte granules within the 128-byte row
        4 => a ^ (((a >> 7) & 3) << 5),
        // 128B_ATOM_32B_FLIP_8B: as 4, and the 8-byte halves of each 16 bytes swap on odd rows
        5 => a ^ (((a >> 7) & 3) << 5) ^ (((a >> 7) & 1) << 3),
        // 128B_ATOM_64B: 64-byte granules
        6 => a ^ (((a >> 7) & 1) << 6),
        _ => a,
    }
}

/// The value an out-of-bounds element reads as: zero, or with NaN-request-zero-FMA the 16-bit
/// pattern 0x7ff7 in every half-word (a NaN in every float width: fp32 reads 0x7ff77ff7, fp16
/// 0x7ff7; measured, calibration/tma).
pub fn oob_value(m: &TensorMap) -> u64 {
    if m.fill == 1 && m.is_float() {
        0x7ff7_7ff7_7ff7_7ff7 & (u64::MAX >> (64 - 8 * m.elem_bytes()))
    } else {
        0
    }
}

/// Bytes between the starts of consecutive rows (dimension-0 runs) of a box in shared memory:
/// the row's own bytes, or under a swizzle the swizzle span (a row shorter than the span is
/// padded to it; measured, calibration/tma).
pub fn row_pitch(m: &TensorMap, row_bytes: u64) -> u64 {
    if m.swizzle != 0 && m.interleave == 0 {
        swizzle_span(m.swizzle).max(row_bytes)
    } else {
        row_bytes
    }
}

/// What the TMA instructions of a run did, as Nsight Compute counts it: instructions by kind, and
/// the 32-byte global sectors the loads read, the stores wrote and the reductions updated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TmaCounts {
    /// Loads (`cp.async.bulk.tensor` global -> shared, multicast and im2col included).
    pub loads: u64,
    /// Stores.
    pub stores: u64,
    /// Reductions.
    pub reductions: u64,
    /// Prefetches.
    pub prefetches: u64,
    /// Global sectors the loads read (`l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld`).
    pub ld_sectors: u64,
    /// Global sectors the stores wrote.
    pub st_sectors: u64,
    /// Global sectors the reductions updated.
    pub red_sectors: u64,
}

impl TmaCounts {
    /// Adds `o`'s counts.
    pub fn add(&mut self, o: &TmaCounts) {
        self.loads += o.loads;
        self.stores += o.stores;
        self.reductions += o.reductions;
        self.prefetches += o.prefetches;
        self.ld_sectors += o.ld_sectors;
        self.st_sectors += o.st_sectors;
        self.red_sectors += o.red_sectors;
    }
}

/// The global sectors a box moves: per row (a dimension-0 run of elements), the 32-byte sectors its
/// in-bounds bytes touch, and, for a load (`oob_counts`), each out-of-bounds stretch of the row
/// rounded up to whole sectors (measured: a load of a box wholly outside the tensor still counts
/// its bytes / 32; calibration/tma). `elems` in the walk's order, rows of `row` elements.
pub fn sectors(elems: &[Elem], row: usize, esz: u64, oob_counts: bool) -> u64 {
    let mut total = 0;
    for r in elems.chunks(row.max(1)) {
        let inb: Vec<u64> = r.iter().filter_map(|e| e.global).collect();
        if let (Some(&lo), Some(&hi)) = (inb.iter().min(), inb.iter().max()) {
            total += (hi + esz).div_ceil(32) - lo / 32;
        }
        if oob_counts {
            // the out-of-bounds stretches before and after the in-bounds run
            let first = r.iter().position(|e| e.global.is_some()).unwrap_or(r.len());
            let last = r
                .iter()
                .rposition(|e| e.global.is_some())
                .map_or(r.len(), |i| r.len() - 1 - i);
            let (before, after) = if first == r.len() {
                (r.len(), 0)
            } else {
                (first, last)
            };
            total += (before as u64 * esz).div_ceil(32) + (after as u64 * esz).div_ceil(32);
        }
    }
    total
}

/// One element of a box: its global address (`None`: out of the tensor's bounds) and its byte
/// offset in the box as shared memory holds it (before the swizzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elem {
    /// Global address, or `None` out of bounds.
    pub global: Option<u64>,
    /// Byte offset in the box.
    pub offset: u64,
}

/// The elements of a tiled box at `coords` (signed element coordinates of the box's first
/// element), in shared-memory order (dimension 0 fastest), to `f`.
pub fn tiled_elems(
    m: &TensorMap,
    coords: &[i64],
    mut f: impl FnMut(Elem) -> Result<(), String>,
) -> Result<(), String> {
    let r = usize::from(m.rank);
    let esz = m.elem_bytes();
    let n: Vec<u64> = (0..r).map(|i| m.box_count(i)).collect();
    let total: u64 = n.iter().product();
    let pitch = row_pitch(m, n[0] * esz);
    let mut k = vec![0u64; r];
    for idx in 0..total {
        let mut addr = m.address as i128;
        let mut inb = true;
        for i in 0..r {
            let c = coords[i] + (k[i] * u64::from(m.step(i))) as i64;
            if c < 0 || c >= i64::from(m.dims[i]) {
                inb = false;
            }
            addr += i128::from(c) * m.stride(i) as i128;
        }
        f(Elem {
            global: inb.then_some(addr as u64),
            offset: (idx / n[0]) * pitch + (idx % n[0]) * esz,
        })?;
        for i in 0..r {
            k[i] += 1;
            if k[i] < n[i] {
                break;
            }
            k[i] = 0;
        }
    }
    Ok(())
}

/// The elements of an im2col column: `pixels` pixels of `channels` elements from the pixel at
/// `coords` (C, W, H, D, N: channel, spatial coordinates, image), walking W, then H, then D, then N
/// inside the pixel box (the tensor's spatial extent moved by the lower and upper corners); each
/// pixel read at its spatial coordinates plus `offsets` (the filter position). Shared memory
/// holds pixel after pixel.
pub fn im2col_elems(
    m: &TensorMap,
    coords: &[i64],
    offsets: &[i64],
    mut f: impl FnMut(Elem) -> Result<(), String>,
) -> Result<(), String> {
    let r = usize::from(m.rank);
    let sp = r - 2;
    let esz = m.elem_bytes();
    // the pixel box in each spatial dimension
    let lo: Vec<i64> = (0..sp).map(|k| i64::from(m.lower[k])).collect();
    let hi: Vec<i64> = (0..sp)
        .map(|k| i64::from(m.dims[k + 1]) - 1 + i64::from(m.upper[k]))
        .collect();
    let mut pos: Vec<i64> = (0..sp).map(|k| coords[k + 1]).collect();
    let mut n = coords[r - 1];
    let pitch = row_pitch(m, u64::from(m.channels) * esz);
    for px in 0..u64::from(m.pixels) {
        let mut off = px * pitch;
        for ch in 0..u64::from(m.channels) {
            let c = coords[0] + ch as i64;
            let mut inb = c >= 0 && c < i64::from(m.dims[0]) && n >= 0 && n < i64::from(m.dims[r - 1]);
            let mut addr =
                m.address as i128 + i128::from(c) * esz as i128 + i128::from(n) * m.stride(r - 1) as i128;
            for (k, &at) in pos.iter().enumerate() {
                let p = at + offsets.get(k).copied().unwrap_or(0);
                if p < 0 || p >= i64::from(m.dims[k + 1]) {
                    inb = false;
                }
                addr += i128::from(p) * m.stride(k + 1) as i128;
            }
            f(Elem {
                global: inb.then_some(addr as u64),
                offset: off,
            })?;
            off += esz;
        }
        // the next pixel: W, then H, then D inside the box, then the next image
        let mut k = 0;
        loop {
            if k == sp {
                n += 1;
                break;
            }
            pos[k] += 1;
            if pos[k] <= hi[k] {
                break;
            }
            pos[k] = lo[k];
            k += 1;
        }
    }
    Ok(())
}

/// `tensormap.replace`'s new value of a field, checked; the map edited in place.
pub fn replace(b: &mut [u8], field: warpscope_ptx::inst::TmField, ord: usize, v: u64) -> Result<(), String> {
    use warpscope_ptx::inst::TmField as F;
    // 128 zero bytes are a map whose every field is 0 (a tiled map: no interleave, swizzle, L2
    // promotion, zero fill): programs build maps on the device that way, Triton's
    // `tl.make_tensor_descriptor` zeroing shared memory and replacing each field it needs
    if b.len() >= MAP_BYTES && b[..MAP_BYTES].iter().all(|&x| x == 0) {
        b[0..4].copy_from_slice(&MAGIC.to_le_bytes());
    }
    if b.len() < MAP_BYTES || u32::from_le_bytes(le(b, 0)) != MAGIC {
        return Err("tensormap.replace on memory that holds no tensor map".into());
    }
    let ord_ok = |n: usize| {
        if ord < n {
            Ok(())
        } else {
            Err(format!("ordinal {ord} is past the map's dimensions"))
        }
    };
    match field {
        F::GlobalAddress => b[16..24].copy_from_slice(&v.to_le_bytes()),
        F::Rank => b[5] = (v as u8).wrapping_add(1),
        F::BoxDim => {
            ord_ok(5)?;
            b[80 + 2 * ord..82 + 2 * ord].copy_from_slice(&(v as u16).to_le_bytes());
        }
        F::GlobalDim => {
            ord_ok(5)?;
            b[24 + 4 * ord..28 + 4 * ord].copy_from_slice(&(v as u32).to_le_bytes());
        }
        F::GlobalStride => {
            ord_ok(4)?;
            b[48 + 8 * ord..56 + 8 * ord].copy_from_slice(&v.to_le_bytes());
        }
        F::ElementStride => {
            ord_ok(5)?;
            b[90 + ord] = v as u8;
        }
        F::ElemType => b[6] = v as u8,
        F::InterleaveLayout => b[7] = v as u8,
        F::SwizzleMode => b[8] = v as u8,
        F::FillMode => b[10] = v as u8,
        // the swizzle atomicity of sm_100 (16B, 32B, 32B + 8B flip, 64B): the 128B atom modes
        F::SwizzleAtomicity => {
            if b[8] == 3 || b[8] >= 4 {
                b[8] = match v {
                    0 => 3,
                    1 => 4,
                    2 => 5,
                    3 => 6,
                    _ => return Err(format!("swizzle atomicity {v} is not 0 to 3")),
                };
            }
        }
    }
    Ok(())
}

/// The result of a tensor reduction of `old` with `v` (elements of type `dtype`, `esz` bytes), or
/// `None` where the operation does not take the type.
pub fn reduce(op: warpscope_ptx::inst::TmaRed, dtype: u8, old: u64, v: u64) -> Option<u64> {
    use crate::softfloat as sf;
    use warpscope_ptx::inst::{Rnd, TmaRed as O};
    const F16: sf::Fmt = sf::Fmt { ebits: 5, mbits: 10 };
    const BF16: sf::Fmt = sf::Fmt { ebits: 8, mbits: 7 };
    let fmt = match dtype {
        6 => Some(F16),
        7 | 10 => Some(sf::F32),
        8 => Some(sf::F64),
        9 => Some(BF16),
        _ => None,
    };
    let (bits, signed) = match dtype {
        0 => (8, false),
        1 | 6 | 9 => (16, false),
        2 => (32, false),
        3 => (32, true),
        4 => (64, false),
        5 => (64, true),
        _ => (32, false),
    };
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let sx = |x: u64| -> i64 { ((x << (64 - bits)) as i64) >> (64 - bits) };
    let out = match (op, fmt) {
        (O::Add, Some(f)) => sf::add(f, old, v, Rnd::Rn),
        (O::Add, None) if matches!(dtype, 2..=5) => old.wrapping_add(v),
        (O::Min | O::Max, Some(_)) if matches!(dtype, 6 | 9) => {
            let (a, b) = (
                crate::arith::half_to_f64(half_ty(dtype), old),
                crate::arith::half_to_f64(half_ty(dtype), v),
            );
            let take_b = if op == O::Min { b < a } else { b > a };
            // a NaN in memory gives way to the number
            if a.is_nan() || take_b { v } else { old }
        }
        (O::Min | O::Max, None) if matches!(dtype, 2..=5) => {
            let less = if signed {
                sx(v) < sx(old)
            } else {
                v & mask < old & mask
            };
            let take = if op == O::Min {
                less
            } else {
                !less && v & mask != old & mask
            };
            if take { v } else { old }
        }
        (O::Inc, None) if dtype == 2 => {
            if old & mask >= v & mask {
                0
            } else {
                old + 1
            }
        }
        (O::Dec, None) if dtype == 2 => {
            if old & mask == 0 || old & mask > v & mask {
                v
            } else {
                old - 1
            }
        }
        (O::And, None) if matches!(dtype, 2..=5) => old & v,
        (O::Or, None) if matches!(dtype, 2..=5) => old | v,
        (O::Xor, None) if matches!(dtype, 2..=5) => old ^ v,
        _ => return None,
    };
    Some(out & mask)
}

fn half_ty(dtype: u8) -> warpscope_ptx::inst::Ty {
    if dtype == 9 {
        warpscope_ptx::inst::Ty::BF16
    } else {
        warpscope_ptx::inst::Ty::F16
    }
}

/// The name of `CUtensorMapDataType` `t`.
pub fn type_name(t: u8) -> &'static str {
    TYPE_NAMES.get(usize::from(t)).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map2d(swizzle: u8, boxes: [u16; 2]) -> TensorMap {
        TensorMap {
            layout: Layout::Tiled,
            rank: 2,
            dtype: 7,
            interleave: 0,
            swizzle,
            l2: 0,
            fill: 0,
            address: 0x1_0000_0000,
            dims: [64, 64, 1, 1, 1],
            strides: [256, 0, 0, 0],
            boxes: [boxes[0], boxes[1], 0, 0, 0],
            estrides: [1; 5],
            channels: 0,
            pixels: 0,
            lower: [0; 3],
            upper: [0; 3],
        }
    }

    #[test]
    fn maps_round_trip_through_their_bytes() {
        let m = map2d(3, [32, 16]);
        assert_eq!(TensorMap::from_bytes(&m.to_bytes()), Ok(m));
        assert!(
            TensorMap::from_bytes(&[0u8; 128])
                .unwrap_err()
                .contains("no warpscope tensor map")
        );
    }

    #[test]
    fn the_driver_rules_name_the_argument() {
        let mut m = map2d(3, [64, 8]);
        // 64 fp32 = 256 bytes: more than the 128-byte swizzle span
        assert!(m.check().unwrap_err().contains("128-byte swizzle span"));
        m.swizzle = 0;
        m.boxes[1] = 257;
        assert!(m.check().unwrap_err().contains("boxDim[1] = 257"));
        m.boxes[1] = 8;
        m.address += 8;
        assert!(m.check().unwrap_err().contains("16-byte aligned"));
        m.address -= 8;
        m.strides[0] = 100;
        assert!(m.check().unwrap_err().contains("globalStrides[0] = 100"));
        m.strides[0] = 256;
        m.boxes[0] = 6;
        assert!(m.check().unwrap_err().contains("24 bytes"));
        m.boxes[0] = 8;
        m.dtype = 3;
        m.fill = 1;
        assert!(m.check().unwrap_err().contains("INT32"));
    }

    #[test]
    fn swizzles_xor_the_chunk_with_the_row_bits() {
        // 128B: row 1 (bytes 128-255) swaps chunk 0 with chunk 1
        assert_eq!(swizzle(3, 128), 144);
        assert_eq!(swizzle(3, 7 * 128 + 16), 7 * 128 + 6 * 16);
        assert_eq!(swizzle(2, 3 * 128 + 32), 3 * 128 + 16);
        assert_eq!(swizzle(1, 128), 144);
        assert_eq!(swizzle(1, 256), 256);
        assert_eq!(swizzle(0, 12345), 12345);
    }

    #[test]
    fn boxes_walk_dimension_zero_first_and_mark_the_outside() {
        let m = map2d(0, [4, 2]);
        let mut got = Vec::new();
        tiled_elems(&m, &[62, -1], |e| {
            got.push(e);
            Ok(())
        })
        .unwrap();
        assert_eq!(got.len(), 8);
        // row -1 is outside; in row 0, columns 62 and 63 are inside, 64 and 65 outside
        assert!(got[..4].iter().all(|e| e.global.is_none()));
        assert_eq!(got[4].global, Some(0x1_0000_0000 + 62 * 4));
        assert_eq!(got[5].global, Some(0x1_0000_0000 + 63 * 4));
        assert_eq!(got[6].global, None);
        assert_eq!(got[7].offset, 28);
    }

    #[test]
    fn reductions_follow_the_element_type() {
        use warpscope_ptx::inst::TmaRed;
        assert_eq!(
            reduce(TmaRed::Add, 7, 1.5f32.to_bits() as u64, 2.25f32.to_bits() as u64),
            Some(3.75f32.to_bits() as u64)
        );
        assert_eq!(
            reduce(TmaRed::Min, 3, (-5i32) as u32 as u64, 3),
            Some((-5i32) as u32 as u64)
        );
        assert_eq!(reduce(TmaRed::Min, 2, (-5i32) as u32 as u64, 3), Some(3));
        assert_eq!(reduce(TmaRed::Inc, 2, 7, 7), Some(0));
        assert_eq!(reduce(TmaRed::Dec, 2, 0, 9), Some(9));
        assert_eq!(reduce(TmaRed::And, 7, 1, 1), None);
    }
}
