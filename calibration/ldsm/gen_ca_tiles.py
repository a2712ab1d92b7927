#!/usr/bin/env python3
"""Structured cp.async.ca tile copies with bank conflicts on both sides (rule 3's open domain).

Usage: python3 calibration/ldsm/gen_ca_tiles.py > calibration/ldsm/patterns_ca_tiles.tsv
       python3 calibration/ldsm/gen_ca_tiles.py --blind PREDICTED.tsv > PATTERNS.tsv
         a fresh batch (other pitches, lane counts and swizzles, random layouts over a few shared
         rows and source lines, lanes switched off) with the rule's count of each row written to
         PREDICTED.tsv before the batch is measured (rule 3 of README.md, computed here on its own)

The layouts real kernels make (CuTe's 4-byte `SM80_CP_ASYNC_CACHEALWAYS<uint32_t>` copies of a
K-major tile, padded and swizzled shared tiles): lanes cover R rows of a tile, Lr lanes per row;
lane l copies W bytes of its row's chunk (l % Lr) at a lane stride of CS bytes; the source rows are
Ps bytes apart in global memory, the destination rows Pd bytes apart in shared memory, the
destination optionally XOR-swizzled (CuTe Swizzle<B,M,S> on the byte address), word offset j
within the chunk (the j-th of a chunk's 4-byte copies). Only layouts where a phase has conflicts
on both sides are written (the others are inside rule 3 already). Same columns as gen_patterns.py.
"""
import collections
import itertools
import random
import sys

SMEM = 40960
rows = []


def swz(addr, b, m, s):
    mask = ((1 << b) - 1) << (m + s)
    return addr ^ ((addr & mask) >> s)


seen = set()


def loads(a, g, w):
    phase = 128 // w
    out = []
    for p in range(32 // phase):
        lanes = [l for l in range(p * phase, (p + 1) * phase) if a[l] is not None]
        if not lanes:
            continue
        db, sb = collections.Counter(), collections.Counter()
        for l in lanes:
            for k in range(w // 4):
                db[(a[l] // 4 + k) % 32] += 1
                sb[(g[l] // 4 + k) % 32] += 1
        out.append((max(db.values()), max(sb.values())))
    return out


def union_rule(a, g, w):
    """Rule 3: per phase, the largest |shared bank| + |source bank| - |both| over the words."""
    phase = 128 // w
    total = 0
    for p in range(32 // phase):
        it = [((a[l] // 4 + k) % 32, (g[l] // 4 + k) % 32)
              for l in range(p * phase, (p + 1) * phase) if a[l] is not None for k in range(w // 4)]
        if not it:
            continue
        db = collections.Counter(d for d, _ in it)
        sb = collections.Counter(s for _, s in it)
        both = collections.Counter(it)
        total += max(db[d] + sb[s] - both[(d, s)] for d, s in it)
    return total


def add(form, desc, a, g, both_sided=True):
    w = int(form[2:])
    key = (form, tuple(a), tuple(g))
    if key in seen:
        return
    ls = loads(a, w=w, g=g)
    if both_sided and not any(d > 1 and s > 1 for d, s in ls):
        return
    for x in a:
        assert x is None or 0 <= x and x + 16 <= SMEM, (desc, x)
    seen.add(key)
    rows.append((form, desc, a, g))


BLIND = "--blind" in sys.argv
SWZ = {"none": None, "s233": (2, 4, 3), "s343": (3, 4, 3), "s242": (2, 4, 2), "s132": (1, 4, 3)}
for w in (4, 8, 16) if not BLIND else ():
    form = f"ca{w}"
    for lr, cs, pd, ps, sw, j in itertools.product(
        (4, 8, 16), (16, 32, w), (64, 128, 80, 144, 256), (256, 128, 512, 272), SWZ, (0, 4)
    ):
        if cs < w or (j and w != 4) or lr * cs > pd and sw != "none":
            continue
        a, g = [], []
        for l in range(32):
            r, c = divmod(l, lr)
            d = r * pd + c * cs + j
            if SWZ[sw]:
                d = swz(d, *SWZ[sw])
            a.append(d)
            g.append(4096 + r * ps + c * cs + j)
        add(form, f"tile_lr{lr}_cs{cs}_pd{pd}_ps{ps}_{sw}_j{j}", a, g)

if BLIND:
    rng = random.Random(20261128)
    SWB = {"none": None, "s243": (2, 4, 3), "s333": (3, 3, 3), "s142": (1, 4, 2), "s234": (2, 3, 4)}
    tiles = []
    for w in (4, 8, 16):
        for lr, cs, pd, ps, sw in itertools.product(
            (2, 4, 8, 32), (w, 16, 32, 48), (96, 160, 192, 320, 64), (192, 320, 384, 1024), SWB
        ):
            if cs < w or cs % w:
                continue
            a, g = [], []
            for l in range(32):
                r, c = divmod(l, lr)
                d = r * pd + c * cs
                if SWB[sw]:
                    d = swz(d, *SWB[sw])
                a.append(d % (SMEM - 16) // w * w)
                g.append(8192 + r * ps + c * cs)
            tiles.append((f"ca{w}", f"blind_tile_lr{lr}_cs{cs}_pd{pd}_ps{ps}_{sw}", a, g))
    rng.shuffle(tiles)
    for form, desc, a, g in tiles[:70]:
        add(form, desc, a, g)
    for k in range(80):
        w = rng.choice((4, 8, 16))
        nrows, nlines = rng.randint(1, 4), rng.randint(1, 4)
        mask = rng.getrandbits(32) if k % 3 == 0 else (1 << 32) - 1
        a = [rng.randrange(nrows * 128 // w) * w if mask >> l & 1 else None for l in range(32)]
        g = [8192 + rng.randrange(nlines * 128 // w) * w + 256 * rng.randrange(4) for l in range(32)]
        if all(x is None for x in a):
            continue
        add(f"ca{w}", f"blind_rand_r{nrows}_l{nlines}_{'mask' if k % 3 == 0 else 'full'}_{k}", a, g)
    with open(sys.argv[sys.argv.index("--blind") + 1], "w") as f:
        f.write("id\tform\tdesc\tpredicted_ldgsts_wavefronts\n")
        for i, (form, desc, a, g) in enumerate(rows):
            f.write(f"{400000 + i}\t{form}\t{desc}\t{union_rule(a, g, int(form[2:]))}\n")

print("id\tkind\tform\tdesc\t" + "\t".join(f"a{l}" for l in range(32)) + "\t" + "\t".join(f"g{l}" for l in range(32)))
for i, (form, desc, a, g) in enumerate(rows):
    print(f"{(400000 if BLIND else 300000) + i}\tldgsts\t{form}\t{desc}\t" + "\t".join("-" if x is None else str(x) for x in a) + "\t" + "\t".join(map(str, g)))
print(len(rows), "rows", file=sys.stderr)
