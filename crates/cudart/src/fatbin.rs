//! The fat binary nvcc embeds in a program and hands to `__cudaRegisterFatBinary`.
//!
//! Layout (little-endian), as nvcc 13 writes it:
//! - the wrapper: magic `0x466243b1`, version (u32), pointer to the fatbin blob (u64), unused (u64);
//! - the blob: magic `0xBA55ED50`, version (u16), header size (u16), size of the entries (u64);
//! - each entry: kind (u16: 1 PTX, 2 ELF cubin), version (u16), header size (u32), padded payload
//!   size (u64), compressed payload size (u32 at byte 16), target (`sm_XX`, u32 at byte 28),
//!   flags (u64 at byte 40: `0x2000` LZ4, `0x8000` Zstandard), uncompressed size (u64 at byte 56);
//!   the payload follows the header.
//!
//! PTX is Zstandard-compressed by nvcc 13 (`ruzstd` decodes it); LZ4 (older toolkits) is not
//! decoded and is reported as such.

use std::fmt;

/// Magic of the wrapper struct passed to `__cudaRegisterFatBinary`.
pub const WRAPPER_MAGIC: u32 = 0x466243b1;
/// Magic of a fatbin blob.
pub const FATBIN_MAGIC: u32 = 0xBA55ED50;
const FLAG_LZ4: u64 = 0x2000;
const FLAG_ZSTD: u64 = 0x8000;
/// Largest blob accepted (the header's size field is not trusted beyond this).
const MAX_BLOB: u64 = 1 << 31;

/// Kind of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// PTX text.
    Ptx,
    /// An ELF cubin (machine code).
    Elf,
}

/// One decoded entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// PTX or cubin.
    pub kind: Kind,
    /// Target: 90 for `sm_90` / `compute_90`.
    pub sm: u32,
    /// The payload, decompressed.
    pub data: Vec<u8>,
}

/// Why a fatbin could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FatbinError(pub String);

impl fmt::Display for FatbinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether a PTX entry's `.target` is architecture-specific (`sm_90a`, `sm_100f`).
pub fn arch_specific(ptx: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&ptx[..ptx.len().min(4096)]);
    let target = text
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|t| t.split([',', ' ', '\t']).find(|s| !s.is_empty()));
    target.is_some_and(|t| t.starts_with("sm_") && t.ends_with(['a', 'f']))
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

/// The size in bytes of the fatbin blob starting with `head` (its first 16 bytes).
pub fn blob_size(head: &[u8]) -> Result<usize, FatbinError> {
    if u32_at(head, 0) != Some(FATBIN_MAGIC) {
        return Err(FatbinError("not a fatbin (bad magic)".into()));
    }
    let hsz = u16_at(head, 6).unwrap_or(0) as u64;
    let size = u64_at(head, 8).unwrap_or(0);
    if hsz < 16 || size > MAX_BLOB {
        return Err(FatbinError(format!(
            "fatbin header size {hsz}, entries {size} bytes"
        )));
    }
    Ok((hsz + size) as usize)
}

/// Decodes every entry of one fatbin blob (`blob` holds exactly the blob, or more).
pub fn parse(blob: &[u8]) -> Result<Vec<Entry>, FatbinError> {
    let total = blob_size(blob)?;
    let blob = blob
        .get(..total)
        .ok_or_else(|| FatbinError(format!("fatbin of {total} bytes is truncated")))?;
    let mut p = u16_at(blob, 6).unwrap_or(16) as usize;
    let mut out = Vec::new();
    while p + 64 <= blob.len() {
        let bad = || FatbinError(format!("fatbin entry at byte {p} is malformed"));
        let kind = u16_at(blob, p).ok_or_else(bad)?;
        let hsz = u32_at(blob, p + 4).ok_or_else(bad)? as usize;
        let padded = u64_at(blob, p + 8).ok_or_else(bad)? as usize;
        let csize = u32_at(blob, p + 16).ok_or_else(bad)? as usize;
        let sm = u32_at(blob, p + 28).ok_or_else(bad)?;
        let flags = u64_at(blob, p + 40).ok_or_else(bad)?;
        let usize_ = u64_at(blob, p + 56).ok_or_else(bad)? as usize;
        if hsz < 64 {
            return Err(bad());
        }
        let start = p + hsz;
        let payload = blob.get(start..start.saturating_add(padded)).ok_or_else(bad)?;
        let kind = match kind {
            1 => Some(Kind::Ptx),
            2 => Some(Kind::Elf),
            _ => None,
        };
        if let Some(kind) = kind {
            let data = if flags & FLAG_ZSTD != 0 {
                let src = payload.get(..csize.max(1).min(payload.len())).unwrap_or(payload);
                zstd(src, usize_).map_err(|e| {
                    FatbinError(format!(
                        "cannot decompress a Zstandard fatbin entry (sm_{sm}): {e}"
                    ))
                })?
            } else if flags & FLAG_LZ4 != 0 {
                return Err(FatbinError(format!(
                    "an LZ4-compressed fatbin entry (sm_{sm}): rebuild with nvcc 12.8 or newer, or with -Xfatbin -compress-all=false"
                )));
            } else {
                let n = if kind == Kind::Ptx && csize > 0 {
                    csize
                } else {
                    padded
                };
                payload[..n.min(payload.len())].to_vec()
            };
            out.push(Entry { kind, sm, data });
        }
        p = start + padded;
    }
    Ok(out)
}

fn zstd(src: &[u8], expect: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut dec = ruzstd::decoding::StreamingDecoder::new(src).map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(expect.min(1 << 28));
    dec.read_to_end(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// PTX text of an entry: the bytes up to the first NUL, as UTF-8.
pub fn ptx_text(e: &Entry) -> String {
    let end = e.data.iter().position(|&b| b == 0).unwrap_or(e.data.len());
    String::from_utf8_lossy(&e.data[..end]).into_owned()
}

/// Registers per thread of every kernel of a cubin, as ptxas assigned them (`cuobjdump -res-usage`'s
/// `REG`): the `EIATTR_REGCOUNT` (0x2f) attributes of the `.nv.info` section, each naming the
/// kernel's symbol.
pub fn cubin_registers(cubin: &[u8]) -> Vec<(String, u32)> {
    cubin_function_values(cubin, 0x2f)
}

/// The stack frame of every kernel of a cubin in bytes per thread, as ptxas laid it out (its local
/// arrays and spilled registers; `cudaFuncGetAttributes`' `localSizeBytes`): the
/// `EIATTR_FRAME_SIZE` (0x11) attributes of the `.nv.info` section, each naming the kernel's
/// symbol. (The H200 answered 592 for a `-maxrregcount=32` kernel whose frame is 0x250 and
/// whose PTX declares no local memory, `calibration/run/bench13/h200/spill.stdout`.)
pub fn cubin_frame_sizes(cubin: &[u8]) -> Vec<(String, u32)> {
    cubin_function_values(cubin, 0x11)
}

/// The hardware barriers ptxas reserved for every kernel of a cubin (`EIATTR_NUM_BARRIERS`,
/// 0x4c, a byte value in the kernel's own `.nv.info.<kernel>` section): 1 for `__syncthreads()`,
/// the highest named barrier's number plus one, 16 where a `bar.sync`'s barrier number is a
/// register. From 9.0 they limit the blocks an SM holds (`warpscope_model::occupancy`): the H200
/// ran calibration/run/bench17's `namedbar` `specialised` (40 registers, 192 threads, 16 barriers)
/// at 37.5 % theoretical occupancy, where registers alone give 75 %.
pub fn cubin_barriers(cubin: &[u8]) -> Vec<(String, u32)> {
    use elf::ElfBytes;
    use elf::endian::LittleEndian;
    let Ok(file) = ElfBytes::<LittleEndian>::minimal_parse(cubin) else {
        return Vec::new();
    };
    let Ok((Some(headers), Some(names))) = file.section_headers_with_strtab() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for shdr in headers.iter() {
        let Some(kernel) = names
            .get(shdr.sh_name as usize)
            .ok()
            .and_then(|n| n.strip_prefix(".nv.info."))
        else {
            continue;
        };
        let Ok((info, _)) = file.section_data(&shdr) else {
            continue;
        };
        let mut p = 0;
        while p + 4 <= info.len() {
            let (fmt, attr) = (info[p], info[p + 1]);
            let size = u16::from_le_bytes([info[p + 2], info[p + 3]]);
            // format 0x02 (a byte value) keeps its value where the others keep their size
            if fmt == 0x02 && attr == 0x4c {
                out.push((kernel.to_string(), u32::from(size & 0xff)));
            }
            p += 4 + if fmt == 0x04 { size as usize } else { 0 };
        }
    }
    out
}

/// The size of every kernel's `.nv.shared.<kernel>` section of a cubin: the 1 KB the GPU reserves
/// at the start of a block's shared window on sm_90 (where the kernel has it) and the static shared
/// variables as ptxas laid them out, rounded up to the section's alignment. The cubins nvcc makes
/// name no shared variable in their symbol table (calibration/layout/), so the variables' offsets
/// are not there; the sizes are. Each as `(kernel, size, alignment)`.
pub fn cubin_shared_sizes(cubin: &[u8]) -> Vec<(String, u64, u64)> {
    use elf::ElfBytes;
    use elf::endian::LittleEndian;
    let Ok(file) = ElfBytes::<LittleEndian>::minimal_parse(cubin) else {
        return Vec::new();
    };
    let Ok((Some(headers), Some(names))) = file.section_headers_with_strtab() else {
        return Vec::new();
    };
    headers
        .iter()
        .filter_map(|shdr| {
            let name = names.get(shdr.sh_name as usize).ok()?;
            let kernel = name.strip_prefix(".nv.shared.")?;
            (!kernel.starts_with("reserved.")).then(|| (kernel.to_string(), shdr.sh_size, shdr.sh_addralign))
        })
        .collect()
}

/// The `(symbol, value)` attributes `attr` of a cubin's `.nv.info` section (format 0x04: a
/// symbol index and a 32-bit value), the symbol by name.
fn cubin_function_values(cubin: &[u8], attr_id: u8) -> Vec<(String, u32)> {
    use elf::ElfBytes;
    use elf::endian::LittleEndian;
    let Ok(file) = ElfBytes::<LittleEndian>::minimal_parse(cubin) else {
        return Vec::new();
    };
    let Ok(Some(shdr)) = file.section_header_by_name(".nv.info") else {
        return Vec::new();
    };
    let Ok((info, _)) = file.section_data(&shdr) else {
        return Vec::new();
    };
    let Ok(Some((symtab, strtab))) = file.symbol_table() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut p = 0;
    while p + 4 <= info.len() {
        let (fmt, attr) = (info[p], info[p + 1]);
        let size = u16::from_le_bytes([info[p + 2], info[p + 3]]) as usize;
        let payload = if fmt == 0x04 { size } else { 0 };
        if fmt == 0x04
            && attr == attr_id
            && size >= 8
            && let (Some(sym), Some(regs)) = (u32_at(info, p + 4), u32_at(info, p + 8))
            && let Ok(s) = symtab.get(sym as usize)
            && let Ok(name) = strtab.get(s.st_name as usize)
        {
            out.push((name.to_string(), regs));
        }
        p += 4 + payload;
    }
    out
}

/// `launch__registers_per_thread` as Nsight Compute reports it on an H100: the count ptxas assigned,
/// but at least 16 (measured: `REG:8` and `REG:10` read 16; `REG:17` and `REG:18` read 17 and 18;
/// `calibration/run/h100/`).
pub fn allocated_registers(regs: u32) -> u32 {
    regs.max(16)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_arch_specific_ptx_is_known_by_its_target() {
        assert!(super::arch_specific(
            b"//\n.version 8.7\n.target sm_90a\n.address_size 64\n"
        ));
        assert!(super::arch_specific(b".target sm_100f, debug\n"));
        assert!(!super::arch_specific(b".version 8.7\n.target sm_90\n"));
        assert!(!super::arch_specific(b"no target here"));
    }

    use super::*;

    fn entry(kind: u16, sm: u32, flags: u64, payload: &[u8], usize_: u64) -> Vec<u8> {
        let mut h = vec![0u8; 64];
        let padded = payload.len().div_ceil(8) * 8;
        h[0..2].copy_from_slice(&kind.to_le_bytes());
        h[4..8].copy_from_slice(&64u32.to_le_bytes());
        h[8..16].copy_from_slice(&(padded as u64).to_le_bytes());
        h[16..20].copy_from_slice(&(payload.len() as u32).to_le_bytes());
        h[28..32].copy_from_slice(&sm.to_le_bytes());
        h[40..48].copy_from_slice(&flags.to_le_bytes());
        h[56..64].copy_from_slice(&usize_.to_le_bytes());
        h.extend_from_slice(payload);
        h.resize(64 + padded, 0);
        h
    }

    fn blob(entries: &[Vec<u8>]) -> Vec<u8> {
        let body: Vec<u8> = entries.concat();
        let mut b = Vec::new();
        b.extend_from_slice(&FATBIN_MAGIC.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(&(body.len() as u64).to_le_bytes());
        b.extend_from_slice(&body);
        b
    }

    #[test]
    fn plain_entries() {
        let b = blob(&[
            entry(2, 90, 0, b"\x7fELF....", 0),
            entry(1, 90, 0, b".version 9.0\n\0", 0),
        ]);
        let es = parse(&b).unwrap();
        assert_eq!(es.len(), 2);
        assert_eq!(es[0].kind, Kind::Elf);
        assert_eq!(es[1].kind, Kind::Ptx);
        assert_eq!(ptx_text(&es[1]), ".version 9.0\n");
        assert_eq!(blob_size(&b).unwrap(), b.len());
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(parse(b"not a fatbin at all, really").is_err());
        let mut b = blob(&[entry(1, 90, 0, b"x", 0)]);
        b.truncate(40);
        assert!(parse(&b).is_err());
        let lz4 = blob(&[entry(1, 90, FLAG_LZ4, b"abcd", 4)]);
        assert!(parse(&lz4).unwrap_err().0.contains("LZ4"));
        let z = blob(&[entry(1, 90, FLAG_ZSTD, b"abcd", 4)]);
        assert!(parse(&z).unwrap_err().0.contains("Zstandard"));
    }
}
