"""Reads the H200's results of mufu2.cu (calibration/mufu/h200/round1/ and round2/, as measure.sh
and measure2.sh write them; h200/ex2.delta.xz and lg2.delta.xz of mufu.cu) and makes the
emulator's embedded tables crates/emu/data/mufu_*.zst and the replay data h200/rand.zst,
h200/rand2.zst, h200/half.zst.

    python3 tables.py        (needs numpy and the `zstd` command)

An embedded table is the measured result words of a range of inputs as the differences of
consecutive words in mufu2.cu's byte code (crates/emu/src/mufu/table.rs reads them back); the
half-precision tables are each result minus the correctly rounded one, one signed byte each.
"""
import io
import lzma
import os
import struct
import subprocess
import sys
import tarfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
H200 = os.path.join(HERE, "h200")
ROUND1 = os.environ.get("ROUND1", os.path.join(H200, "round1"))
ROUND2 = os.environ.get("ROUND2", os.path.join(H200, "round2"))
DATA = os.path.join(ROOT, "crates", "emu", "data")

# the segments of each file, in mufu2.cu's order: (name, first input bits, count, step)
SEGS = {
    "rsq_sqrt.tab": [("rsq", 0x3F800000, 1 << 24, 1), ("sqrt", 0x3F800000, 1 << 24, 1)],
    "lg2.tab": [("lg2a", 0x3E800000, 1 << 24, 1), ("lg2b", 0x40000000, 1 << 24, 1)],
    "ex2.tab": [("ex2p", 0x3E000000, 1 << 25, 1), ("ex2n", 0xBE000000, 1 << 25, 1)],
    "tanh.tab": [("tanh", 0x39800000, 1 << 23, 16)],
    "sincos.tab": [("sin", 0x3D800000, 1 << 25, 1), ("cos", 0x3D800000, 1 << 25, 1)],
    "tanh2.tab": [("tanh2", 0x3F800000, 3 << 21, 4)],
    "ex2neg.tab": [("ex2neg", 0, 1 << 23, 0)],  # inputs -k / 2^23, not bit patterns
}


def deltas(b):
    """The differences put_deltas wrote: one signed byte, or 0x80 and a little-endian i32."""
    b = np.frombuffer(b, dtype=np.uint8)
    keep = np.ones(len(b), dtype=bool)
    esc, j = [], 0
    for e in np.flatnonzero(b == 0x80):
        if e >= j:
            esc.append(e)
            keep[e + 1 : e + 5] = False
            j = e + 5
    d = b.astype(np.int8).astype(np.int64)
    for e in esc:
        d[e] = struct.unpack("<i", bytes(b[e + 1 : e + 5]))[0]
    return d[keep]


def load(name, where=None):
    """{segment: (input bits, result bits)} of one measured file."""
    d = deltas(lzma.open(os.path.join(where or ROUND1, name + ".xz")).read())
    out, o = {}, 0
    for seg, start, n, step in SEGS[name]:
        v = (np.cumsum(d[o : o + n]) & 0xFFFFFFFF).astype(np.uint32)
        o += n
        out[seg] = ((start + np.arange(n, dtype=np.uint64) * step).astype(np.uint32), v)
    assert o == len(d), (name, o, len(d))
    return out


def f32bits(v):
    return np.asarray(v, dtype=np.float64).astype(np.float32).view(np.uint32)


def encode(res):
    """mufu2.cu's byte code of the differences of consecutive words (the first relative to 0)."""
    res = res.astype(np.int64)
    d = np.diff(res, prepend=0)
    d = ((d + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    out = bytearray()
    small = np.abs(d) <= 127
    if small.all():
        return d.astype(np.int8).tobytes()
    for v, ok in zip(d.tolist(), small.tolist()):
        if ok:
            out.append(v & 0xFF)
        else:
            out.append(0x80)
            out += struct.pack("<i", v)
    return bytes(out)


def zstd(raw_bytes, path):
    raw = path[:-4] + ".bin"
    with open(raw, "wb") as f:
        f.write(raw_bytes)
    subprocess.check_call(["zstd", "-19", "--long=27", "-q", "-f", "--rm", raw, "-o", path])
    print(os.path.relpath(path, ROOT), os.path.getsize(path), "bytes")


def write_table(name, res):
    zstd(encode(res), os.path.join(DATA, "mufu_%s.zst" % name))


def old(name):
    """mufu.cu's tables: the running sum of u32 differences."""
    a = np.frombuffer(lzma.open(os.path.join(H200, name + ".delta.xz")).read(), dtype=np.uint32)
    return (np.cumsum(a.astype(np.uint64)) & 0xFFFFFFFF).astype(np.uint32)


def split_small():
    """measure.sh's small.tar.xz, if present, into round1/struct.bin.xz, h200/half.zst and
    h200/rand.zst (what the repository keeps)."""
    path = os.path.join(ROUND1, "small.tar.xz")
    if not os.path.exists(path):
        return
    t = tarfile.open(fileobj=io.BytesIO(lzma.open(path).read()))
    files = {m.name: t.extractfile(m).read() for m in t.getmembers()}
    with lzma.open(os.path.join(ROUND1, "struct.bin.xz"), "wb") as f:
        f.write(files["struct.bin"])
    zstd(files["half.bin"], os.path.join(H200, "half.zst"))
    zstd(files["rand.bin"], os.path.join(H200, "rand.zst"))
    os.remove(path)


def unzstd(path):
    return subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout


def f32(u):
    return u.view(np.float32).astype(np.float64)


def main():
    os.makedirs(DATA, exist_ok=True)
    split_small()
    # RSQ, SQRT: every input of [1, 4)
    t = load("rsq_sqrt.tab")
    write_table("rsq", t["rsq"][1])
    write_table("sqrt", t["sqrt"][1])
    # EX2: T[f] = ex2(f / 2^23) (mufu.cu), N[g] = ex2(-g / 2^23) (round 2)
    pos = old("ex2")
    x, r = load("ex2.tab")["ex2p"]
    q = np.floor(f32(x) * 2.0**23).astype(np.int64)
    inside = q < (1 << 23)
    assert (pos[q[inside]] == r[inside]).all(), "ex2 of [1/8, 1) is the table at 23 fraction bits"
    write_table("ex2_pos", pos)
    # a negative x = -(n + g/2^23), g > 0, gives T[2^23 - 1 - g] * 2^-(n+1): check every input of
    # (-2, -1/8] and, with the second round, every -k/2^23
    x, r = load("ex2.tab")["ex2n"]
    check_ex2_negative(pos, x, r)
    neg = os.path.join(ROUND2, "ex2neg.tab.xz")
    if os.path.exists(neg):
        r = load("ex2neg.tab", ROUND2)["ex2neg"][1]
        k = np.arange(1 << 23, dtype=np.float64)
        check_ex2_negative(pos, (-k / 2.0**23).astype(np.float32).view(np.uint32), r)
    # LG2: e = 0 (mufu.cu), e = -1 from significand 1.375 on (round 1)
    write_table("lg2", old("lg2"))
    x, r = load("lg2.tab")["lg2a"]
    half = r[(1 << 23) + (3 << 20) : 1 << 24]
    write_table("lg2_half", half)
    # SIN: the first quarter period at 2^-25, from [1/16, 1/4) and, reflected, (7/16, 1/2)
    x, r = load("sincos.tab")["sin"]
    q = np.floor(f32(x) * 2.0**25).astype(np.int64)
    S = np.zeros(1 << 25, dtype=np.uint32)
    have = np.zeros(1 << 25, dtype=bool)
    S[q] = r
    have[q] = True
    k = np.arange(1 << 23)
    quarter = np.where(have[k], S[k], S[(1 << 24) - 1 - k])
    assert (have[k] | have[(1 << 24) - 1 - k]).all()
    write_table("sin", quarter)
    # TANH: binades 2^-8 .. 2^2, the significand's bits from `low` up
    low = [6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3]
    x1, r1 = load("tanh.tab")["tanh"]
    x2, r2 = load("tanh2.tab", ROUND2)["tanh2"]
    parts = []
    for b, lo in enumerate(low):
        e = 119 + b
        want = (e << 23) + (np.arange(1 << (23 - lo), dtype=np.int64) << lo)
        xs, rs = (x1, r1) if e < 127 else (x2, r2)
        pos_ = np.searchsorted(xs, want)
        assert (xs[pos_] == want).all(), "tanh binade %d is measured" % (e - 127)
        parts.append(rs[pos_])
    write_table("tanh", np.concatenate(parts))
    # halves: every input, the result minus the correctly rounded one
    h = np.frombuffer(unzstd(os.path.join(H200, "half.zst")), dtype=np.uint16).reshape(4, 65536)
    names = ["ex2_f16", "tanh_f16", "ex2_bf16", "tanh_bf16"]
    for j, name in enumerate(names):
        ref = half_ref(j % 2 == 0, j >= 2)
        c = h[j].astype(np.int64) - ref
        if np.abs(c).max() > 127:
            raise SystemExit("%s: a result %d units off" % (name, np.abs(c).max()))
        zstd(c.astype(np.int8).tobytes(), os.path.join(DATA, "mufu_%s.zst" % name))
    # replay data of the second round
    rand2 = os.path.join(ROUND2, "rand2.bin.xz")
    if os.path.exists(rand2):  # kept as h200/rand2.zst only
        zstd(lzma.open(rand2).read(), os.path.join(H200, "rand2.zst"))
        os.remove(rand2)


def check_ex2_negative(pos, x, r):
    a = -f32(x)
    q = np.floor(a * 2.0**23).astype(np.int64)
    n, g = q >> 23, q & ((1 << 23) - 1)
    t = pos[np.where(g > 0, (1 << 23) - 1 - g, 0)].astype(np.int64)
    e = np.where(g > 0, (t >> 23) - n - 1, 127 - n)
    m = np.where(g > 0, t & 0x7FFFFF, 0)
    want = np.where(e > 0, (e << 23) | m, 0)
    bad = np.flatnonzero(want != r)
    assert len(bad) == 0, "ex2(%s) is not the rule" % [hex(v) for v in x[bad[:5]]]
    print("ex2: %d negative inputs follow T[2^23 - 1 - g] * 2^-(n+1)" % len(r))


def half_ref(ex2, bf16):
    """The correctly rounded result of every half input (round to nearest even)."""
    i = np.arange(65536, dtype=np.uint32)
    if bf16:
        x = (i << 16).view(np.float32).astype(np.float64)
    else:
        x = i.astype(np.uint16).view(np.float16).astype(np.float64)
    with np.errstate(all="ignore"):
        y = np.exp2(x) if ex2 else np.tanh(x)
    if bf16:
        return np.array([bf16_rn(v) for v in y], dtype=np.int64)
    out = y.astype(np.float16).view(np.uint16).astype(np.int64)
    out[np.isnan(y)] = 0x7FFF
    return out


def bf16_rn(v):
    if v != v:
        return 0x7FFF
    b = struct.unpack("<Q", struct.pack("<d", v))[0]
    # f64 -> f32 rounding first would round twice: round the f64 directly to 8 significand bits
    import fractions

    if v == 0 or abs(v) == float("inf"):
        return (struct.unpack("<I", struct.pack("<f", v))[0] >> 16) & 0xFFFF
    fr = fractions.Fraction(v)
    sign = 0x8000 if v < 0 else 0
    a = abs(fr)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if fractions.Fraction(2) ** e > a:
        e -= 1
    e = max(e, -126)
    q = fractions.Fraction(2) ** (e - 7)
    n = a / q
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > fractions.Fraction(1, 2) or (rem == fractions.Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    val = fl * q
    return (struct.unpack("<I", struct.pack("<f", float(val) if val < 2**128 else float("inf")))[0] >> 16) | sign


if __name__ == "__main__":
    main()
