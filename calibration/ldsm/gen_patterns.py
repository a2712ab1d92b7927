#!/usr/bin/env python3
"""Writes the ldmatrix / stmatrix / cp.async calibration patterns (deterministic) to stdout.

Usage: python3 calibration/ldsm/gen_patterns.py [--heldout|--targeted|--cg16-check|--cg16-dup] > calibration/ldsm/patterns.tsv

Columns: id, kind (ldsm|stsm|ldgsts), form, desc, a0..a31 (shared byte address of each lane: the row
address for ldsm/stsm, the destination for ldgsts; '-' = the lane's predicate is off), g0..g31 (global
source byte offset, ldgsts only; 0 otherwise). --heldout writes a fresh batch (other seed, other
parameters) that was not looked at while the rules were found.
"""
import random
import sys

SMEM = 40960
HELDOUT = "--heldout" in sys.argv or "--targeted" in sys.argv
TARGETED = "--targeted" in sys.argv
rng = random.Random(20261125 if not HELDOUT else 977)
rows = []


def add(kind, form, desc, a, g=None):
    a = list(a)
    g = list(g) if g is not None else [0] * 32
    assert len(a) == 32 and len(g) == 32
    for x in a:
        if x is not None:
            assert 0 <= x and x + 16 <= SMEM, (desc, x)
    rows.append((kind, form, desc, a, g))


def swz(addr, b, m, s):
    """CuTe Swizzle<B,M,S> on a byte address: bits [M+S, M+S+B) xor into bits [M, M+B)."""
    mask = ((1 << b) - 1) << (m + s)
    return addr ^ ((addr & mask) >> s)


# ---------------------------------------------------------------------------------------------------
# ldmatrix / stmatrix: row addresses (16-byte aligned). Lanes beyond the form's address lanes get
# addresses too (they must not matter; some rows give them wild ones).
MAT_FORMS = ["x1", "x2", "x4", "x1t", "x2t", "x4t"]
NLANES = {"x1": 8, "x2": 16, "x4": 32, "x1t": 8, "x2t": 16, "x4t": 32}


def mat_patterns():
    pats = []
    strides = [0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 256, 272, 288, 512, 528, 1024]
    if HELDOUT:
        strides = [0, 16, 208, 240, 320, 384, 400, 640, 1040, 1168]
    for st in strides:
        for off in ([0, 16, 80] if st in (16, 128, 144, 256) else [0]):
            base = off + (st * 32 if st < 0 else 0)
            pats.append((f"stride{st}_off{off}", [base + l * st for l in range(32)]))
    for st in ([-16, -128, -144] if not HELDOUT else [-32, -272]):
        pats.append((f"stride{st}", [16384 + l * st for l in range(32)]))
    # Fragment patterns of a 16x16 (A operand) tile: lanes 0-15 rows 0..15, lanes 16-31 the column +8.
    pitches = [32, 64, 128, 144, 256, 272] if not HELDOUT else [48, 96, 160, 512, 528]
    for p in pitches:
        pats.append((f"afrag_p{p}", [(l % 16) * p + (l // 16) * 16 for l in range(32)]))
        pats.append((f"bfrag_p{p}", [(l % 8) * p + (l // 8) * 16 for l in range(32)]))
        pats.append((f"kfrag_p{p}", [((l % 8) + 8 * (l // 16)) * p + ((l // 8) % 2) * 16 for l in range(32)]))
    # CuTe swizzles on a row-major tile of 64 halves (128 B) or 32 halves (64 B) per row.
    sw = [(3, 4, 3, 128), (2, 4, 3, 128), (1, 4, 3, 128), (2, 4, 2, 64), (3, 4, 4, 256), (2, 4, 3, 64),
          (3, 4, 3, 64), (1, 4, 2, 64)]
    if HELDOUT:
        sw = [(3, 4, 3, 256), (2, 4, 4, 256), (3, 4, 2, 128), (1, 4, 3, 256)]
    for (b, m, s, pitch) in sw:
        for name, f in (("afrag", lambda l: (l % 16) * pitch + (l // 16) * 16),
                        ("col0", lambda l: l * pitch),
                        ("kfrag", lambda l: ((l % 8) + 8 * (l // 16)) * pitch + ((l // 8) % 2) * 16)):
            pats.append((f"swz{b}{m}{s}_p{pitch}_{name}", [swz(f(l), b, m, s) for l in range(32)]))
    # Duplicates.
    pats.append(("all_same", [256] * 32))
    pats.append(("pairs_share", [(l // 2) * 16 for l in range(32)]))
    pats.append(("pairs_share_p128", [(l // 2) * 128 for l in range(32)]))
    pats.append(("matrices_same_rows", [(l % 8) * 16 for l in range(32)]))
    pats.append(("matrices_same_rows_p128", [(l % 8) * 128 for l in range(32)]))
    pats.append(("matrices_same_rows_p144", [(l % 8) * 144 for l in range(32)]))
    pats.append(("rows_same_in_matrix", [(l // 8) * 16 for l in range(32)]))
    pats.append(("rows_same_in_matrix_p128", [(l // 8) * 128 for l in range(32)]))
    pats.append(("half_same", [(l % 16) * 16 for l in range(32)]))
    pats.append(("mod4_p128", [(l % 4) * 128 for l in range(32)]))
    pats.append(("two_addrs_same_bank", [(l % 2) * 1024 for l in range(32)]))
    pats.append(("four_addrs_conflict", [(l % 4) * 128 + 0 for l in range(32)]))
    pats.append(("rowgroups_xor", [((l % 8) ^ (l // 8)) * 16 + (l // 8) * 128 for l in range(32)]))
    # Rows of one matrix all in one 128-byte line, in permuted order; matrices in other lines.
    for k in range(3):
        perm = list(range(8))
        rng.shuffle(perm)
        pats.append((f"perm_in_line{k}", [perm[l % 8] * 16 + (l // 8) * 128 for l in range(32)]))
    # Random: distinct 16-byte chunks within 512 B / 4 KB / whole buffer, and from a small set.
    for k in range(6 if not HELDOUT else 8):
        span = [512, 4096, SMEM - 16][k % 3]
        pats.append((f"rand{span}_{k}", [rng.randrange(0, span // 16) * 16 for _ in range(32)]))
    for k in range(4 if not HELDOUT else 6):
        pool = [rng.randrange(0, 256) * 16 for _ in range(rng.choice([2, 3, 5, 8]))]
        pats.append((f"randpool{len(pool)}_{k}", [rng.choice(pool) for _ in range(32)]))
    return pats


def wild_tail(a, n):
    """Lanes n..31 get unrelated addresses (they supply no row address for x1/x2)."""
    return [x if l < n else ((l * 7919) % 2048) * 16 for l, x in enumerate(a)]


for kind in ("ldsm", "stsm"):
    for form in MAT_FORMS:
        for i, (desc, a) in enumerate(mat_patterns()):
            # x1 and x4 take every pattern; x2 and the .trans forms every other one
            if form in ("x2", "x1t", "x2t", "x4t") and i % 2 == (1 if form in ("x2", "x2t") else 0):
                continue
            add(kind, form, desc, a)
        n = NLANES[form]
        if n < 32:
            add(kind, form, "wild_tail_stride16", wild_tail([l * 16 for l in range(32)], n))
            add(kind, form, "wild_tail_stride128", wild_tail([l * 128 for l in range(32)], n))
        # Per-lane predicate off (undefined for .aligned, measured anyway): which lanes still count?
        for mname, off in (("lane0off", {0}), ("lane5off", {5}), ("odd_off", set(range(1, 32, 2))),
                           ("upper_half_off", set(range(16, 32))), ("lanes8to15off", set(range(8, 16))),
                           ("all_but_lane0_off", set(range(1, 32)))):
            if HELDOUT and mname in ("lane0off", "upper_half_off"):
                continue
            base = [l * 128 for l in range(32)] if not HELDOUT else [l * 144 for l in range(32)]
            add(kind, form, "pred_" + mname + "_stride128", [None if l in off else x for l, x in enumerate(base)])
            add(kind, form, "pred_" + mname + "_stride16", [None if l in off else l * 16 for l in range(32)])


# ---------------------------------------------------------------------------------------------------
# cp.async: destinations (aligned to the width) and sources.
def cp_patterns(w):
    pats = []
    u = w  # unit
    dsts = [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 32, 33, -1]
    srcs = [1, 0, 2, 8, -1]
    offs = [0, 1, 3]
    if HELDOUT:
        dsts, srcs, offs = [0, 1, 2, 3, 6, 10, 17, -1, -3], [1, 0, 4, 3], [0, 2, 5]
    grid = []
    for ds in dsts:
        for ss in srcs:
            for do in offs:
                for so in ([0, 1] if ss == 1 else [0]):
                    grid.append((ds, ss, do, so))
    # keep the structured core and a deterministic sample of the rest
    core = [t for t in grid if t[2] == 0 and t[3] == 0 and t[1] in (1, 0)]
    rest = [t for t in grid if t not in core]
    rng.shuffle(rest)
    pick = core + rest[: (36 if w == 16 else 14) if not HELDOUT else (30 if w == 16 else 12)]
    for (ds, ss, do, so) in pick:
        dbase = do * u + (64 * u if ds < 0 else 0) + (32 * u * 3 if ds == -3 else 0)
        sbase = so * u + (64 * u if ss < 0 else 0)
        a = [(dbase + l * ds * u) % (SMEM - 4096) for l in range(32)]
        g = [sbase + l * ss * u for l in range(32)]
        pats.append((f"d{ds}o{do}_s{ss}o{so}", a, g))
    # Tile copies: 8 lanes per 128-byte global row (16 B each), global pitch 4096 B, into shared with
    # pitch P and an optional swizzle.
    if w == 16:
        tiles = [(128, None), (144, None), (128, (3, 4, 3)), (128, (2, 4, 3)), (256, (3, 4, 4)), (64, None),
                 (64, (2, 4, 2)), (272, None), (128, (1, 4, 3))]
        if HELDOUT:
            tiles = [(256, None), (160, None), (256, (3, 4, 3)), (64, (1, 4, 2)), (128, (3, 4, 2))]
        for (p, s) in tiles:
            for gp in ([4096, 128] if not HELDOUT else [2048]):
                per_row = 8 if p >= 128 else 4
                a, g = [], []
                for l in range(32):
                    r, c = l // per_row, l % per_row
                    d = r * p + c * 16
                    if s:
                        d = swz(d, *s)
                    a.append(d)
                    g.append(r * gp + c * 16)
                tag = f"swz{s[0]}{s[1]}{s[2]}" if s else "noswz"
                pats.append((f"tile_p{p}_{tag}_gp{gp}", a, g))
        # Source misaligned to its 128-byte line, destination contiguous / swizzled.
        for so in ([16, 32, 64, 112] if not HELDOUT else [48, 96]):
            pats.append((f"srcshift{so}_dcontig", [l * 16 for l in range(32)], [so + l * 16 for l in range(32)]))
            pats.append((f"srcshift{so}_dswz343", [swz(l * 16, 3, 4, 3) for l in range(32)],
                         [so + l * 16 for l in range(32)]))
        # Same 128-byte source line per 8 lanes, destination rows permuted within a line.
        for k in range(4):
            perm = list(range(8))
            rng.shuffle(perm)
            pats.append((f"dperm_in_line{k}", [(l // 8) * 128 + perm[l % 8] * 16 for l in range(32)],
                         [l * 16 for l in range(32)]))
            pats.append((f"sperm_in_line{k}", [l * 16 for l in range(32)],
                         [(l // 8) * 128 + perm[l % 8] * 16 for l in range(32)]))
            # whole-warp permutation of destination chunks over 512 B
            perm32 = list(range(32))
            rng.shuffle(perm32)
            pats.append((f"dperm32_{k}", [perm32[l] * 16 for l in range(32)], [l * 16 for l in range(32)]))
    # Random destinations and sources.
    for k in range(8 if not HELDOUT else 8):
        span = [512, 4096][k % 2]
        a = [rng.randrange(0, span // u) * u for _ in range(32)]
        if k % 4 < 2:
            g = [l * u for l in range(32)]
        else:
            g = [rng.randrange(0, 8192 // u) * u for _ in range(32)]
        pats.append((f"rand{span}_{'gcontig' if k % 4 < 2 else 'grand'}_{k}", a, g))
    return pats


for w, forms in ((4, ["ca4"]), (8, ["ca8"]), (16, ["cg16", "ca16"])):
    for form in forms:
        for desc, a, g in cp_patterns(w):
            add("ldgsts", form, desc, a, g)
        # masks
        for mname, on in (("half", set(range(16))), ("odd", set(range(1, 32, 2))), ("lane3", {3}),
                          ("quarter", set(range(8))), ("every4", set(range(0, 32, 4)))):
            if HELDOUT and mname == "quarter":
                continue
            for ds in (1, 2, 4):
                a = [l * ds * w if l in on else None for l in range(32)]
                add("ldgsts", form, f"mask_{mname}_d{ds}_scontig", a, [l * w for l in range(32)])
# Zero-fill forms (16 B): a few layouts
for form in ("cg16z0", "cg16z8"):
    for ds, ss in ((1, 1), (0, 1), (2, 1), (3, 1), (2, 2), (1, 0)):
        add("ldgsts", form, f"d{ds}_s{ss}", [l * ds * 16 for l in range(32)], [l * ss * 16 for l in range(32)])

# ---------------------------------------------------------------------------------------------------
# --targeted: the 16-byte cp.async.cg (LDGSTS.BYPASS.128) rule, one 128-byte source line at a time,
# and the 4/8-byte rule with sources spread over lines.
def targeted():
    trng = random.Random(4242)
    off = [None] * 32
    def one_line(form, desc, lanes_p_d, line=0):
        a, g = list(off), [0] * 32
        for lane, p, d in lanes_p_d:
            a[lane] = d * 16
            g[lane] = line * 128 + p * 16
        add("ldgsts", form, desc, a, g)
    for form in ("cg16",):
        for s in range(16):
            one_line(form, f"line_shift{s}", [(l, l, l + s) for l in range(8)])
        for k in range(70):
            perm = list(range(8)); trng.shuffle(perm)
            one_line(form, f"line_perm1row_{k}", [(l, l, perm[l]) for l in range(8)])
        for k in range(40):
            d = trng.sample(range(16), 8)
            one_line(form, f"line_map2rows_{k}", [(l, l, d[l]) for l in range(8)])
        for k in range(20):
            d = trng.sample(range(32), 8)
            one_line(form, f"line_map4rows_{k}", [(l, l, d[l]) for l in range(8)])
        for k in range(20):
            perm = list(range(8)); trng.shuffle(perm)
            one_line(form, f"line_lanesperm_{k}", [(l, perm[l], l) for l in range(8)])
        for k in range(30):
            n = trng.choice([2, 3, 4, 5, 6])
            ps = trng.sample(range(8), n)
            ds = trng.sample(range(16), n)
            one_line(form, f"line_sub{n}_{k}", [(l, ps[l], ds[l]) for l in range(n)])
        for k in range(6):
            one_line(form, f"line_dup_dst_{k}", [(l, l, [0, 0, 1, 1, 2, 2, 3, 3][l] + 4 * (k % 2)) for l in range(8)])
        for k in range(20):
            # two source lines, 16 lanes, destinations in one or two rows
            a, g = list(off), [0] * 32
            da = trng.sample(range(16), 16) if k % 2 else trng.sample(range(8), 8) * 2
            for l in range(16):
                a[l] = da[l] * 16 + (128 * 8 if (k % 2 == 0 and l >= 8) else 0)
                g[l] = (l // 8) * 4096 + (l % 8) * 16
            add("ldgsts", form, f"two_lines_{k}", a, g)
    for form in ("ca16",):
        for k in range(12):
            perm = list(range(8)); trng.shuffle(perm)
            one_line(form, f"line_perm1row_{k}", [(l, l, perm[l]) for l in range(8)])
        for s in range(0, 16, 3):
            one_line(form, f"line_shift{s}", [(l, l, l + s) for l in range(8)])
    for form, w in (("ca4", 4), ("ca8", 8), ("ca16", 16)):
        n = 128 // w
        for k in range(12):
            a = [l * w for l in range(32)]
            g = [trng.randrange(0, n) * w + 128 * trng.randrange(0, 64) for _ in range(32)]
            add("ldgsts", form, f"dcontig_srclines_rand_{k}", a, g)
        for k in range(8):
            a = [l * w for l in range(32)]
            g = [(l * w) % 128 + 128 * trng.randrange(0, 64) for l in range(32)]
            add("ldgsts", form, f"dcontig_src_samebank_otherlines_{k}", a, g)
        for k in range(12):
            a = [trng.randrange(0, 512 // w) * w for _ in range(32)]
            g = [trng.randrange(0, n) * w + 128 * trng.randrange(0, 64) for _ in range(32)]
            add("ldgsts", form, f"drand_srclines_rand_{k}", a, g)
        for k in range(8):
            a = [trng.randrange(0, 512 // w) * w for _ in range(32)]
            g = [trng.randrange(0, 4096 // w) * w for _ in range(32)]
            add("ldgsts", form, f"drand_srand4k_{k}", a, g)


# ---------------------------------------------------------------------------------------------------
# --cg16-check: a fresh batch of 16-byte cp.async.cg layouts (own seed), generated after the
# sector-routing rule was fitted, to test it on rows it has not seen.
def cg16_check():
    crng = random.Random(31337)
    def lanes(n):
        return sorted(crng.sample(range(32), n))
    # padded and swizzled tile copies: 128-byte global rows, shared pitch P, optional swizzle
    for p in range(16, 16 * 41, 16):
        for s in (None, (crng.choice([1, 2, 3]), 4, crng.choice([1, 2, 3, 4]))):
            per_row = max(1, min(8, p // 16))
            a, g = [], []
            for l in range(32):
                r, c = l // per_row, l % per_row
                d = r * p + c * 16
                if s:
                    d = swz(d, *s)
                a.append(d % (SMEM - 4096))
                g.append(r * 4096 + c * 16)
            add("ldgsts", "cg16", f"chk_tile_p{p}_{'swz%d%d%d' % s if s else 'noswz'}", a, g)
    # one to four source lines, destinations permuted over 1-4 shared rows, random lane subsets
    for k in range(120):
        n_lines = crng.choice([1, 2, 4])
        n_rows = crng.choice([1, 2, 4])
        n = crng.choice([4, 8, 16, 24, 32])
        on = lanes(n)
        a, g = [None] * 32, [0] * 32
        dst_chunks = crng.sample(range(8 * n_rows), min(n, 8 * n_rows))
        for i, l in enumerate(on):
            g[l] = crng.randrange(n_lines) * 2048 + crng.randrange(8) * 16
            a[l] = (dst_chunks[i % len(dst_chunks)] * 16 + 1024 * crng.randrange(2)) % (SMEM - 4096)
        add("ldgsts", "cg16", f"chk_mix_l{n_lines}_r{n_rows}_n{n}_{k}", a, g)
    # whole 32-byte source sectors moved together (pairs of lanes), sectors shifted or mirrored
    for k in range(60):
        a, g = [None] * 32, [0] * 32
        for line in range(4):
            sect = crng.sample(range(4), 4)
            flip = crng.random() < 0.3
            for sct in range(4):
                for half in range(2):
                    l = line * 8 + sct * 2 + half
                    g[l] = line * 4096 + sct * 32 + half * 16
                    a[l] = line * 128 * crng.choice([1, 2]) + sect[sct] * 32 + (half ^ flip) * 16
        add("ldgsts", "cg16", f"chk_sectors_{k}", a, g)
    # fully random destinations and sources
    for k in range(60):
        span = crng.choice([256, 512, 1024, 4096])
        a = [crng.randrange(0, span // 16) * 16 for _ in range(32)]
        g = [crng.randrange(0, 8192 // 16) * 16 for _ in range(32)]
        add("ldgsts", "cg16", f"chk_rand{span}_{k}", a, g)
    # repeated destinations
    for k in range(40):
        a = [crng.randrange(0, 16) * 16 for _ in range(32)]
        g = [l * 16 + crng.choice([0, 4096]) for l in range(32)]
        add("ldgsts", "cg16", f"chk_dupdst_{k}", a, g)
    # source offsets (lines not 128-byte aligned) with contiguous or swizzled destinations
    for so in range(16, 128, 16):
        for s in (None, (3, 4, 3), (2, 4, 3)):
            a = [swz(l * 16, *s) if s else l * 16 for l in range(32)]
            add("ldgsts", "cg16", f"chk_srcoff{so}_{'swz%d%d%d' % s if s else 'contig'}", a,
                [so + l * 16 for l in range(32)])


# ---------------------------------------------------------------------------------------------------
# --cg16-dup: 16-byte cp.async.cg layouts where several lanes copy the same 16-byte source chunk (a
# 32-byte source sector read by three or more lanes), own seed; measured before any rule for them
# was fitted, to test one.
def cg16_dup():
    drng = random.Random(5150)
    for k in range(200):
        n_lines = drng.choice([1, 1, 2, 4])
        n_rows = drng.choice([1, 2, 4])
        n = drng.choice([3, 4, 6, 8, 12, 16, 24, 32])
        chunks = drng.choice([2, 3, 4, 6, 8])  # distinct source chunks per line drawn from
        on = sorted(drng.sample(range(32), n))
        a, g = [None] * 32, [0] * 32
        dst = drng.sample(range(8 * n_rows), min(n, 8 * n_rows))
        pool = [(ln, c) for ln in range(n_lines) for c in drng.sample(range(8), chunks)]
        for i, l in enumerate(on):
            ln, c = drng.choice(pool)
            g[l] = ln * 2048 + c * 16
            a[l] = dst[i % len(dst)] * 16
        add("ldgsts", "cg16", f"dup_l{n_lines}_r{n_rows}_n{n}_c{chunks}_{k}", a, g)


CG16_CHECK = "--cg16-check" in sys.argv
CG16_DUP = "--cg16-dup" in sys.argv
if TARGETED:
    rows.clear()
    targeted()
if CG16_CHECK:
    rows.clear()
    cg16_check()
if CG16_DUP:
    rows.clear()
    cg16_dup()

print("id\tkind\tform\tdesc\t" + "\t".join(f"a{l}" for l in range(32)) + "\t" + "\t".join(f"g{l}" for l in range(32)))
start = 400000 if CG16_DUP else 300000 if CG16_CHECK else 200000 if TARGETED else 100000 if HELDOUT else 0
for i, (kind, form, desc, a, g) in enumerate(rows):
    cells = [str(start + i), kind, form, desc] + ["-" if x is None else str(x) for x in a] + [str(x) for x in g]
    print("\t".join(cells))
