#!/usr/bin/env python3
"""Layouts for cas.cu (deterministic) and every candidate's counts, written before the device round.
Usage: gen_layouts.py layouts > layouts.txt
       gen_layouts.py predict > predicted.tsv (committed before the round; predicted_fixed.tsv: the
       ro rows with the ignore-src polarity corrected)
Line: name W K, 32 dst, 32 src (bytes), 32 rd (0/1: the lane reads its source; K 1/3 only), 32 ex."""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "capred"))
import rules as C  # noqa: E402  (calibration/capred: union_pass, rule4, crowded, cg_pred)

ALL = 0xFFFFFFFF
rng = random.Random(7741)
SH = 16384  # shared bytes
GL = 65536  # source window


def lay16():
    """(name, dst, src) 16-byte layouts: most keep neither the sources' offsets nor their place in a
    128-byte line."""
    t = range(32)
    L = []
    L.append(("contig", [16 * i for i in t], [16 * i for i in t]))
    L.append(("contig_line1", [16 * i for i in t], [128 + 16 * i for i in t]))
    L.append(("src_off64", [16 * i for i in t], [64 + 16 * i for i in t]))
    L.append(("src_off32", [16 * i for i in t], [32 + 16 * i for i in t]))
    L.append(("src_off16", [16 * i for i in t], [16 + 16 * i for i in t]))
    L.append(("dst_off16", [16 + 16 * i for i in t], [16 * i for i in t]))
    L.append(("dst_off64", [64 + 16 * i for i in t], [16 * i for i in t]))
    for s in (2, 3, 4, 8):
        L.append((f"dst_stride{s}", [16 * s * i for i in t], [16 * i for i in t]))
        L.append((f"src_stride{s}", [16 * i for i in t], [16 * s * i for i in t]))
    L.append(("src_stride7", [16 * i for i in t], [112 * i for i in t]))
    L.append(("both_stride2", [32 * i for i in t], [32 * i for i in t]))
    L.append(("both_stride2_off16", [32 * i for i in t], [16 + 32 * i for i in t]))
    L.append(("dst_col", [128 * i for i in t], [16 * i for i in t]))
    L.append(("src_col", [16 * i for i in t], [128 * i for i in t]))
    L.append(("src_col_off", [16 * i for i in t], [48 + 128 * i for i in t]))
    L.append(("reversed_src", [16 * i for i in t], [16 * (31 - i) for i in t]))
    L.append(("reversed_dst", [16 * (31 - i) for i in t], [16 * i for i in t]))
    L.append(("pairs_src", [16 * i for i in t], [16 * (i // 2) for i in t]))
    L.append(("quads_src", [16 * i for i in t], [16 * (i // 4) for i in t]))
    L.append(("bcast_src", [16 * i for i in t], [256] * 32))
    L.append(("one_dst", [512] * 32, [16 * i for i in t]))
    L.append(("pairs_dst", [16 * (i // 2) for i in t], [16 * i for i in t]))
    L.append(("phase_same_src", [16 * i for i in t], [16 * (i % 8) for i in t]))
    L.append(("phase_same_src_off", [16 * i for i in t], [64 + 16 * (i % 8) for i in t]))
    L.append(("phase_same_dst", [16 * (i % 8) for i in t], [16 * i for i in t]))
    L.append(("half_same_src", [16 * i for i in t], [16 * (i % 16) for i in t]))
    L.append(("rot_src_in_line", [16 * i for i in t], [128 * (i // 8) + 16 * ((i + 3) % 8) for i in t]))
    L.append(("rot1_src_in_line", [16 * i for i in t], [128 * (i // 8) + 16 * ((i + 1) % 8) for i in t]))
    L.append(("xor_dst", [128 * (i // 8) + 16 * ((i % 8) ^ (i // 8)) for i in t], [16 * i for i in t]))
    L.append(("xor_src", [16 * i for i in t], [128 * (i // 8) + 16 * ((i % 8) ^ ((i // 8) * 3 % 8)) for i in t]))
    L.append(("swap_halves", [16 * i for i in t], [16 * (i ^ 1) for i in t]))
    L.append(("swap_sectors", [16 * i for i in t], [16 * (i ^ 2) for i in t]))
    L.append(("swap_128", [16 * i for i in t], [16 * (i ^ 8) for i in t]))
    # tiles: rows of 64 bytes (4 lanes) with a source pitch, into swizzled 64-byte shared rows
    for pitch in (64, 80, 144, 256, 272):
        L.append((f"tile64_p{pitch}", [16 * i for i in t], [pitch * (i // 4) + 16 * (i % 4) for i in t]))
        L.append((f"tile64sw_p{pitch}",
                  [64 * (i // 4) + 16 * ((i % 4) ^ ((i // 8) % 4)) for i in t],
                  [pitch * (i // 4) + 16 * (i % 4) for i in t]))
    for pitch in (128, 160, 384):
        L.append((f"tile128_p{pitch}", [16 * i for i in t], [pitch * (i // 8) + 16 * (i % 8) for i in t]))
        L.append((f"tile128sw_p{pitch}",
                  [128 * (i // 8) + 16 * ((i % 8) ^ (i // 8)) for i in t],
                  [pitch * (i // 8) + 16 * (i % 8) for i in t]))
    # a transposing copy: 2 lanes per 32-byte row of source into columns
    L.append(("rows32_to_cols", [128 * (i % 8) + 16 * (i // 8) for i in t], [16 * i for i in t]))
    L.append(("cols_to_rows", [16 * i for i in t], [128 * (i % 8) + 16 * (i // 8) for i in t]))
    for k in range(6):
        d = rng.sample(range(32), 32)
        L.append((f"perm_dst{k}", [16 * x for x in d], [16 * i for i in t]))
    for k in range(6):
        s = rng.sample(range(32), 32)
        L.append((f"perm_src{k}", [16 * i for i in t], [16 * x for x in s]))
    for k in range(4):
        s = rng.sample(range(64), 32)
        d = rng.sample(range(64), 32)
        L.append((f"perm_both{k}", [16 * x for x in d], [16 * x for x in s]))
    for k in range(6):
        L.append((f"scatter{k}", [16 * rng.randrange(SH // 16) for _ in t],
                  [16 * rng.randrange(GL // 16) for _ in t]))
    for k in range(4):
        # sources within few lines, repeated chunks
        L.append((f"crowd{k}", [16 * i for i in t], [16 * rng.randrange(16) for _ in t]))
    for k in range(4):
        L.append((f"dstrep{k}", [16 * rng.randrange(12) for _ in t], [16 * rng.randrange(64) for _ in t]))
    return L


MASKS = [("even", 0x55555555), ("first8", 0xFF), ("one4", 0x11111111), ("hi16", 0xFFFF0000)]


def rows():
    """(name, W, K, dst, src, rd, ex) for every launch."""
    out = []
    L16 = lay16()
    for name, d, s in L16:
        out.append((f"ca16_{name}", 16, 0, d, s, ALL, ALL))
    # partial warps (lanes branching around) on a few layouts
    pick = [x for x in L16 if x[0] in ("src_off64", "dst_stride2", "src_col", "pairs_src", "perm_src0",
                                        "phase_same_src", "tile64_p144", "scatter0")]
    for (name, d, s), (mn, m) in zip(pick, MASKS * 2):
        out.append((f"ca16_{name}_ex{mn}", 16, 0, d, s, ALL, m))
    # predicated .ca 16 (selp src-size): the reading lanes' sectors
    pick = [x for x in L16 if x[0] in ("contig", "src_off64", "dst_stride2", "src_stride2", "dst_col", "src_col",
                                        "pairs_src", "phase_same_src", "tile64sw_p144", "perm_src1",
                                        "perm_dst1", "scatter1")]
    for i, (name, d, s) in enumerate(pick):
        for mn, m in (MASKS[i % 4], MASKS[(i + 1) % 4]):
            out.append((f"ca16p_{name}_{mn}", 16, 1, d, s, m, ALL))
    # 4- and 8-byte .ca (the model claims their sources' sectors)
    t = range(32)
    for w in (4, 8):
        for name, d, s in [
            ("contig", [w * i for i in t], [w * i for i in t]),
            ("src_off64", [w * i for i in t], [64 + w * i for i in t]),
            ("dst_stride32", [32 * i for i in t], [w * i for i in t]),
            ("src_stride32", [w * i for i in t], [32 * i for i in t]),
            ("dst_col", [128 * i for i in t], [w * i for i in t]),
            ("phase_same_src", [w * i for i in t], [w * (i % (128 // w)) for i in t] if w == 8 else [w * (i % 8) for i in t]),
            ("perm_src", [w * i for i in t], [w * x for x in rng.sample(range(32), 32)]),
            ("scatter", [w * rng.randrange(SH // w) for _ in t], [w * rng.randrange(GL // w) for _ in t]),
        ]:
            out.append((f"ca{w}_{name}", w, 0, d, s, ALL, ALL))
    # .cg controls (global::bypass_copy_sectors, measured before)
    for name, d, s in L16:
        if name in ("contig", "src_off64", "dst_stride2", "src_stride2", "dst_col", "src_col", "pairs_src",
                    "phase_same_src", "tile64sw_p144", "perm_src2", "scatter2", "rows32_to_cols", "one_dst",
                    "bcast_src"):
            out.append((f"cg16_{name}", 16, 2, d, s, ALL, ALL))
    for i, (name, d, s) in enumerate([x for x in L16 if x[0] in (
            "contig", "src_off64", "dst_stride2", "src_stride2", "dst_col", "src_col", "pairs_dst", "phase_same_src",
            "tile64sw_p144", "perm_src3", "perm_dst2", "scatter3", "rows32_to_cols", "xor_dst")]):
        for mn, m in (MASKS[i % 4], MASKS[(i + 2) % 4]):
            out.append((f"cg16p_{name}_{mn}", 16, 3, d, s, m, ALL))
    # kernel ro: copies ptxas lays out in another order than the PTX (K = 10 + mode)
    for name, d, s in L16:
        if name not in ("contig", "dst_stride2", "tile64sw_p144", "perm_src0"):
            continue
        for mi in range(3):
            m = [31] * 32 if mi == 0 else [rng.randrange(32) for _ in range(32)]
            for mode in range(6):
                out.append((f"ro{mode}_{name}_m{mi}", 16, 10 + mode, d, s, m, ALL))
    return out


# the predicate operand of each of ro's `.cg` copies (cuobjdump -sass cas, nvcc 13), by mode:
# (rd bit, SASS register, negated, ignore-src); P0 reads as false in the instrumentation. An
# ignore-src copy reads where its bit is CLEAR (the predicate ignores the source); the predictions
# committed before the round took it as set (mode 5's [+20480] copy: 11 of 72 ro rows off),
# corrected here after the round (with it, 72 of 72 equal).
RO_PRED = {0: [(1, 0, True, 1)], 2: [(2, 0, True, 1)], 4: [(4, 0, False, 0)], 5: [(8, 3, True, 1), (16, 4, False, 0)]}


def ro_wavefronts(mode, d, s, m):
    ex = ALL
    if mode == 1:
        return C.union_pass(16, d, s, ex, ex)
    if mode == 3:
        return C.union_pass(8, d, s, ex, ex)
    if C.crowded(d, s, ex):
        return None
    total = 0
    for bit, reg, neg, ignore in RO_PRED[mode]:
        reads = sum(1 << l for l in range(32) if bool(m[l] & bit) != bool(ignore))
        seen = (ex if neg else 0) if reg == 0 else reads
        total += C.cg_pred(d, s, ex, seen)
    return total


def bits(xs):
    return sum(1 << l for l, x in enumerate(xs) if x)


def lanes(m):
    return [l for l in range(32) if m >> l & 1]


def sectors_src(w, src, m):
    return len({a // 32 for l in lanes(m) for a in (src[l], src[l] + w - 1)})


def bypass(dst, src, m):
    """global::bypass_copy_sectors."""
    kept, seen = [], set()
    for l in lanes(m):
        if dst[l] // 16 not in seen:
            seen.add(dst[l] // 16)
            kept.append(l)
    if not kept:
        return 0
    if len({src[l] // 16 for l in kept}) == 1:
        return len({dst[l] // 32 for l in kept})
    return sum(len({(dst[l] // 32, src[l] // 128) for l in kept if l // 8 == p}) for p in range(4))


def phase_src(w, src, m):
    n = 128 // w
    return sum(len({a // 32 for l in lanes(m) if l // n == p for a in (src[l], src[l] + w - 1)})
               for p in range(32 // n))


def pairs(dst, src, m):
    return len({(dst[l] // 32, src[l] // 32) for l in lanes(m)})


def phase_pairs(w, dst, src, m):
    n = 128 // w
    return sum(len({(dst[l] // 32, src[l] // 32) for l in lanes(m) if l // n == p}) for p in range(32 // n))


def predict():
    print("launch\tname\tw\tk\tex\treads\tsec:src\tsec:bypass\tsec:phase_src\tsec:pairs\tsec:phase_pairs"
          "\treq:one\treq:phases\twavefronts")
    for i, (name, w, k, d, s, rd, ex) in enumerate(rows()):
        if k >= 10:
            wf = ro_wavefronts(k - 10, d, s, rd)
            print(f"{i}\t{name}\t{w}\t{k}\t{ex:08x}\t-\t" + "\t".join(["-"] * 7) + "\t"
                  + ("-" if wf is None else str(wf)))
            continue
        reads = ex if k in (0, 2) else rd & ex
        if k == 2:
            wf = None if C.crowded(d, s, ex) else C.rule4(d, s, ex)
        elif k == 3:
            # the predicate operand is P0 (cuobjdump of cas): read as no lane by the instrumentation
            wf = None if C.crowded(d, s, ex) else C.cg_pred(d, s, ex, 0)
        else:
            wf = C.union_pass(w, d, s, ex, reads)
        n = 128 // w
        req_ph = len({l // n for l in lanes(reads)})
        cells = [sectors_src(w, s, reads), bypass(d, s, reads), phase_src(w, s, reads), pairs(d, s, reads),
                 phase_pairs(w, d, s, reads), 1 if reads else 0, req_ph, "-" if wf is None else wf]
        print(f"{i}\t{name}\t{w}\t{k}\t{ex:08x}\t{reads:08x}\t" + "\t".join(map(str, cells)))


def layouts():
    for name, w, k, d, s, rd, ex in rows():
        assert k < 10 or max(d) + 16 <= 4096, name
        assert max(d) + w <= SH and max(s) + w <= GL and all(x % w == 0 for x in d + s), name
        rdl = rd if isinstance(rd, list) else [rd >> l & 1 for l in range(32)]
        exl = [ex >> l & 1 for l in range(32)]
        print(" ".join(map(str, [name, w, k] + d + s + rdl + exl)))


if __name__ == "__main__":
    {"layouts": layouts, "predict": predict}[sys.argv[1]]()
