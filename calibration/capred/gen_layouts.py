#!/usr/bin/env python3
"""Layouts for pca.cu (deterministic): one line per launch pair: name, W (bytes per copy), K (0:
cp.async.ca with src-size selp / ignore-src / plain copies; 1: cp.async.cg with ignore-src),
warps, then 32 destination byte offsets (in a 4 KiB region), 32 source byte offsets, 32 per-lane
read masks (bit c: copy c reads its source) and 32 execute flags (0: the lane branches around the
copies). Usage: gen_layouts.py > layouts.txt"""
import random

rng = random.Random(5309)
ALL = 0xFFFFFFFF


def masks_for(i, w):
    """Seven read masks (copies 0..6), the families rotated by the layout's index so that each
    family meets every predicate register."""
    lanes = 128 // w  # lanes per phase
    fam = [
        ALL,
        0,
        0x55555555,
        (1 << lanes) - 1 if lanes < 32 else 0x0000FFFF,
        0x11111111,
        rng.getrandbits(32),
        rng.getrandbits(32) & rng.getrandbits(32),
    ]
    k = i % 7
    return fam[k:] + fam[:k]


def layouts(w):
    n = 128 // w  # lanes per phase
    L = {}
    T = range(32)
    L["contig"] = ([w * t for t in T], [w * t for t in T])
    L["dst2"] = ([2 * w * t for t in T], [w * t for t in T])
    L["src2"] = ([w * t for t in T], [2 * w * t for t in T])
    L["dstcol"] = ([128 * t for t in T], [w * t for t in T])
    L["srccol"] = ([w * t for t in T], [128 * t for t in T])
    L["bothcol"] = ([128 * t for t in T], [128 * t + 256 for t in T])
    L["srcbcast"] = ([w * t for t in T], [64 for t in T])
    L["dstbcast"] = ([0 for t in T], [w * t for t in T])
    L["dstpairs"] = ([w * (t // 2) for t in T], [w * t for t in T])
    L["srcpairs"] = ([w * t for t in T], [w * (t // 2) for t in T])
    L["src7"] = ([w * t for t in T], [7 * w * t for t in T])
    L["srcrev"] = ([w * t for t in T], [w * (31 - t) for t in T])
    # groups not aligned to 16 bytes (4/8-byte copies only: offsets of one word or one double)
    if w < 16:
        L["mis16"] = ([w * t + 4 * (1 if w == 4 else 2) for t in T], [w * t + 8 for t in T])
        L["mis16s"] = ([w * t for t in T], [w * t + w for t in T])
    # CuTe-like tiles: 4 lanes per 256-byte source row, destination rows of 64 bytes swizzled
    L["kmajor"] = ([64 * (t // 4) % 4096 + ((w * (t % 4)) ^ (16 * ((t // 4) % 4))) for t in T],
                   [256 * (t // 4) + w * (t % 4) for t in T])
    L["kmajor8"] = ([128 * (t % 8) + w * (t // 8) for t in T], [256 * (t // 4) + w * (t % 4) for t in T])
    L["xor"] = ([128 * (t // n) + ((w * (t % n)) ^ (16 * ((t // n) % 8))) % 128 for t in T],
                [w * t for t in T])
    perm = list(T)
    rng.shuffle(perm)
    L["perm"] = ([w * perm[t] for t in T], [w * t for t in T])
    L["permsrc"] = ([w * t for t in T], [w * perm[t] for t in T])
    for r in range(5):
        span_d = rng.choice([128, 256, 512, 1024])
        span_s = rng.choice([128, 512, 2048])
        L[f"rand{r}"] = ([w * rng.randrange(span_d // w) for t in T],
                         [w * rng.randrange(span_s // w) for t in T])
    return L


def main():
    lines = []
    i = 0
    for w in (4, 8, 16):
        L = layouts(w)
        names = list(L)
        for name in names:
            d, s = L[name]
            lines.append((f"ca{w}_{name}", w, 0, 1, d, s, masks_for(i, w), [1] * 32))
            i += 1
        # lanes that branch around the copies
        for name in ["contig", "dstcol", "srccol", "kmajor", "rand0", "perm"]:
            d, s = L[name]
            ex = [rng.random() < 0.6 for _ in range(32)]
            lines.append((f"ca{w}_{name}_ex", w, 0, 1, d, s, masks_for(i, w), [int(x) for x in ex]))
            i += 1
        for name in ["kmajor", "rand1"]:
            d, s = L[name]
            lines.append((f"ca{w}_{name}_w4", w, 0, 4, d, s, masks_for(i, w), [1] * 32))
            i += 1
    # cp.async.cg 16 bytes with ignore-src: layouts inside the routing rule's domain
    T = range(32)
    swz = [16 * ((t // 8) * 8 + ((t % 8) ^ ((t // 8) % 8))) for t in T]
    C = {
        "contig": ([16 * t for t in T], [16 * t for t in T]),
        "swz": (swz, [16 * t for t in T]),
        "e4m3": (swz, [16 * (9 * (t // 4) + t % 4) for t in T]),
        "dst2": ([32 * t for t in T], [16 * t for t in T]),
        "dst8": ([128 * t for t in T], [16 * t for t in T]),
        "shift1": ([16 * t + 16 for t in T], [16 * t for t in T]),
        "src7": ([16 * t for t in T], [112 * t for t in T]),
        "srcrev": ([16 * t for t in T], [16 * (31 - t) for t in T]),
        "dstpairs": ([16 * (t // 2) for t in T], [16 * t for t in T]),
    }
    for name, (d, s) in C.items():
        lines.append((f"cg16_{name}", 16, 1, 1, d, s, masks_for(i, 16), [1] * 32))
        i += 1
    for name in ["contig", "e4m3", "dst2"]:
        d, s = C[name]
        ex = [rng.random() < 0.6 for _ in range(32)]
        lines.append((f"cg16_{name}_ex", 16, 1, 1, d, s, masks_for(i, 16), [int(x) for x in ex]))
        i += 1
    for (name, w, k, warps, d, s, m, ex) in lines:
        assert all(x % w == 0 and 0 <= x <= 4096 - w for x in d), name
        assert all(x % w == 0 and 0 <= x < (1 << 20) - 8192 for x in s), name
        # copy 7 (plain) reads everywhere
        rd = [sum(1 << c for c in range(7) if m[c] >> t & 1) | 0x80 for t in range(32)]
        print(name, w, k, warps, *d, *s, *rd, *ex)


main()
