//! An on-disk cache of what the CUDA tools print (nvdisasm's disassembly, ptxas's cubins and
//! resource reports), so that asking again about the same machine code costs a file read instead
//! of a tool run.
//!
//! An entry is keyed by an XXH3-128 hash of its parts: what was run (the tool's identity: its
//! canonical path, size and modification time, which change when the toolkit is replaced or
//! updated; the arguments) and the content it ran on (the cubin or PTX bytes). Entries live in
//! `$WARPSCOPE_CACHE_DIR`, else `$XDG_CACHE_HOME/warpscope`, else `$HOME/.cache/warpscope`;
//! `WARPSCOPE_NO_CACHE=1` turns the cache off.
//!
//! The cache never changes a result and never fails a run: an entry carries its key and a hash of
//! its payload, and one that does not match (truncated, corrupt, or another key's) is ignored and
//! rewritten; a directory that cannot be created or written only means nothing is stored. Entries
//! are written to a temporary file and renamed into place, so concurrent runs never read a
//! half-written entry.

use std::io::Write;
use std::path::{Path, PathBuf};

use twox_hash::{XxHash3_64, XxHash3_128};

/// The environment variable that turns the cache off (any value but empty or `0`).
pub const NO_CACHE_ENV: &str = "WARPSCOPE_NO_CACHE";
/// The environment variable that names the cache directory.
pub const DIR_ENV: &str = "WARPSCOPE_CACHE_DIR";

const MAGIC: &str = "warpscope-cache 1";

/// A cache directory (or none: every lookup misses and nothing is stored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: Option<PathBuf>,
}

/// A key built from parts; each part is length-prefixed, so `["ab", "c"]` and `["a", "bc"]` differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(u128);

impl Key {
    /// The key of `parts`, in order.
    pub fn of(parts: &[&[u8]]) -> Key {
        let mut h = XxHash3_128::new();
        for p in parts {
            h.write(&(p.len() as u64).to_le_bytes());
            h.write(p);
        }
        Key(h.finish_128())
    }

    fn hex(self) -> String {
        format!("{:032x}", self.0)
    }
}

/// What identifies a tool's version without running it: its canonical path, size and modification
/// time (as bytes for a [`Key`] part). A tool that cannot be read gives its path only.
pub fn tool_identity(program: &Path) -> Vec<u8> {
    let path = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    let mut id = path.to_string_lossy().into_owned().into_bytes();
    if let Ok(m) = std::fs::metadata(&path) {
        id.extend_from_slice(&m.len().to_le_bytes());
        if let Ok(t) = m.modified()
            && let Ok(d) = t.duration_since(std::time::UNIX_EPOCH)
        {
            id.extend_from_slice(&d.as_nanos().to_le_bytes());
        }
    }
    id
}

impl Cache {
    /// The cache the environment asks for: off under `WARPSCOPE_NO_CACHE`, else the first of
    /// `WARPSCOPE_CACHE_DIR`, `$XDG_CACHE_HOME/warpscope`, `$HOME/.cache/warpscope`.
    pub fn from_env() -> Cache {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        if var(NO_CACHE_ENV).is_some_and(|v| v != "0") {
            return Cache::off();
        }
        let dir = var(DIR_ENV)
            .map(PathBuf::from)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("warpscope")))
            .or_else(|| var("HOME").map(|d| PathBuf::from(d).join(".cache").join("warpscope")));
        Cache { dir }
    }

    /// A cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: Some(dir.into()),
        }
    }

    /// No cache.
    pub fn off() -> Cache {
        Cache { dir: None }
    }

    fn path(&self, kind: &str, key: Key) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{kind}-{}", key.hex())))
    }

    /// The stored payload of `key`, if there is a sound one.
    pub fn get(&self, kind: &str, key: Key) -> Option<Vec<u8>> {
        let bytes = std::fs::read(self.path(kind, key)?).ok()?;
        let nl = bytes.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&bytes[..nl]).ok()?;
        let payload = &bytes[nl + 1..];
        let mut f = header.split(' ');
        let ok = f.next() == Some("warpscope-cache")
            && f.next() == Some("1")
            && f.next() == Some(&key.hex())
            && f.next().and_then(|n| n.parse::<usize>().ok()) == Some(payload.len())
            && f.next() == Some(&format!("{:016x}", XxHash3_64::oneshot(payload)))
            && f.next().is_none();
        ok.then(|| payload.to_vec())
    }

    /// Stores `payload` under `key`; failures are ignored (the next run computes it again).
    pub fn put(&self, kind: &str, key: Key, payload: &[u8]) {
        let Some(path) = self.path(kind, key) else {
            return;
        };
        let _ = self.try_put(&path, key, payload);
    }

    fn try_put(&self, path: &Path, key: Key, payload: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".tmp-{}-{seq}", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(&tmp)?;
            writeln!(
                f,
                "{MAGIC} {} {} {:016x}",
                key.hex(),
                payload.len(),
                XxHash3_64::oneshot(payload)
            )?;
            f.write_all(payload)?;
            f.flush()?;
            drop(f);
            std::fs::rename(&tmp, path)
        };
        let r = write();
        if r.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        r
    }

    /// The payload of `key`, from the cache or from `compute` (whose success is stored).
    pub fn get_or<E>(
        &self,
        kind: &str,
        key: Key,
        compute: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Vec<u8>, E> {
        if let Some(hit) = self.get(kind, key) {
            return Ok(hit);
        }
        let v = compute()?;
        self.put(kind, key, &v);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("warpscope-cache-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn stores_and_reads_back() {
        let d = scratch("rw");
        let c = Cache::at(&d);
        let k = Key::of(&[b"nvdisasm", b"cubin bytes"]);
        assert_eq!(c.get("sass", k), None);
        let mut runs = 0;
        let v = c
            .get_or::<()>("sass", k, || {
                runs += 1;
                Ok(b"text\nmore".to_vec())
            })
            .unwrap();
        assert_eq!(v, b"text\nmore");
        let v = c
            .get_or::<()>("sass", k, || {
                runs += 1;
                Ok(b"other".to_vec())
            })
            .unwrap();
        assert_eq!((v.as_slice(), runs), (&b"text\nmore"[..], 1));
        // another key, another kind: misses
        assert_eq!(c.get("sass", Key::of(&[b"nvdisasm", b"cubin byte"])), None);
        assert_eq!(c.get("ptxas", k), None);
        // failures are not stored
        let k2 = Key::of(&[b"x"]);
        assert_eq!(
            c.get_or("sass", k2, || Err::<Vec<u8>, _>("tool failed")),
            Err("tool failed")
        );
        assert_eq!(c.get("sass", k2), None);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn parts_are_delimited() {
        assert_ne!(Key::of(&[b"ab", b"c"]), Key::of(&[b"a", b"bc"]));
        assert_ne!(Key::of(&[b"abc"]), Key::of(&[b"abc", b""]));
    }

    #[test]
    fn corrupt_entries_are_ignored_and_replaced() {
        let d = scratch("corrupt");
        let c = Cache::at(&d);
        let k = Key::of(&[b"k"]);
        c.put("sass", k, b"payload");
        let path = c.path("sass", k).unwrap();
        let good = std::fs::read(&path).unwrap();
        // truncated, a flipped payload byte, a foreign header, garbage, empty
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        let other = Key::of(&[b"other"]);
        c.put("sass", other, b"payload");
        let foreign = std::fs::read(c.path("sass", other).unwrap()).unwrap();
        for bad in [&good[..good.len() - 1], &flipped, &foreign, b"\xff\xfe\n", b""] {
            std::fs::write(&path, bad).unwrap();
            assert_eq!(c.get("sass", k), None);
            let v = c.get_or::<()>("sass", k, || Ok(b"fresh".to_vec())).unwrap();
            assert_eq!(v, b"fresh");
            assert_eq!(c.get("sass", k).as_deref(), Some(&b"fresh"[..]));
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn an_unwritable_directory_only_stores_nothing() {
        let d = scratch("unwritable");
        // a file where the directory should be: create_dir_all fails
        std::fs::write(&d, b"not a directory").unwrap();
        let c = Cache::at(d.join("sub"));
        let k = Key::of(&[b"k"]);
        let v = c.get_or::<()>("sass", k, || Ok(b"v".to_vec())).unwrap();
        assert_eq!(v, b"v");
        assert_eq!(c.get("sass", k), None);
        let off = Cache::off();
        assert_eq!(off.get_or::<()>("sass", k, || Ok(b"w".to_vec())).unwrap(), b"w");
        assert_eq!(off.get("sass", k), None);
        let _ = std::fs::remove_file(&d);
    }

    #[test]
    fn a_changed_tool_changes_its_identity() {
        let d = scratch("tool");
        std::fs::create_dir_all(&d).unwrap();
        let t = d.join("nvdisasm");
        std::fs::write(&t, b"v1").unwrap();
        let a = tool_identity(&t);
        std::fs::write(&t, b"v1.1").unwrap();
        let b = tool_identity(&t);
        assert_ne!(a, b);
        assert_ne!(tool_identity(&d.join("missing")), a);
        let _ = std::fs::remove_dir_all(&d);
    }
}
