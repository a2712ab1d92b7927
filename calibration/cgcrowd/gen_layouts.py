#!/usr/bin/env python3
"""The battery of cw.cu: one 16-byte cp.async.cg copy per launch (cw<FORM, 1>), its layout given
per lane as a destination chunk (16 bytes, in a 4 KiB shared region), a source chunk (16 bytes,
from a 4 KiB-aligned global base) and a value (FORM 0: read where nonzero; FORM 1: the src-size).
Varies the lanes per 32-byte source sector (1, 2, 3, 4, 6, 8, 16, 32; which halves they read; in
lane order or shuffled), destination layouts (contiguous, strides of 2 and 8 chunks, XOR swizzle,
shifted, reversed, permuted, transposed), read masks (FORM 0) and src-sizes (FORM 1).
Deterministic (own seed). Usage: gen_layouts.py > layouts.txt  (FORM NC NAME 32 dst 32 src 32 val)."""
import random

R = random.Random(30305)
L = range(32)


def halves(pattern):
    """Sector g of the pattern's groups: lane l in group l // len(pattern) reads half pattern[l % len]."""
    n = len(pattern)
    return [2 * (l // n) + pattern[l % n] for l in L]


PERM = list(L)
R.shuffle(PERM)

SRC = {
    "s_contig": list(L),
    "s_dup2": [l // 2 for l in L],            # a chunk read by 2 lanes: 4 per sector
    "s_dup3": [l // 3 for l in L],
    "s_dup4": [l // 4 for l in L],
    "s_dup8": [l // 8 for l in L],
    "s_bcast": [5] * 32,                      # one chunk, every lane
    "s_h010": halves([0, 1, 0]),              # 3 lanes per sector: halves 0 1 0
    "s_h011": halves([0, 1, 1]),
    "s_h0101": halves([0, 1, 0, 1]),          # 4 lanes per sector
    "s_h0011": halves([0, 0, 1, 1]),
    "s_h0110": halves([0, 1, 1, 0]),
    "s_h010101": halves([0, 1, 0, 1, 0, 1]),  # 6 lanes per sector
    "s_mod2": [l % 2 for l in L],             # one sector, 16 lanes per half
    "s_mod4": [l % 4 for l in L],             # two sectors, 8 lanes per half
    "s_mod8": [l % 8 for l in L],             # one 128-byte line, 8 lanes per sector... 4 per half
    "s_h010_sh": [halves([0, 1, 0])[PERM[l]] for l in L],   # the same, lanes shuffled
    "s_h0101_sh": [halves([0, 1, 0, 1])[PERM[l]] for l in L],
    "s_dup2_sh": [PERM[l] // 2 for l in L],
    "s_h010_odd": [c + 1 for c in halves([0, 1, 0])],       # sectors straddled: source off by 16 bytes
    "s_h0101_line": [(l // 4) * 8 + (l % 4) % 2 for l in L],  # one crowded sector per 128-byte line
}

DST = {
    "d_contig": list(L),
    "d_str2": [2 * l for l in L],
    "d_str8": [8 * l for l in L],
    "d_xor": [l ^ ((l // 8) % 8) for l in L],
    "d_shift1": [l + 1 for l in L],
    "d_rev": [31 - l for l in L],
    "d_perm": PERM[:],
    "d_tr": [(l % 4) * 8 + l // 4 for l in L],
}

MASKS = {
    "all": [1] * 32,
    "even": [1 - l % 2 for l in L],
    "odd": [l % 2 for l in L],
    "low16": [int(l < 16) for l in L],
    "q1": [int(l % 4 == 0) for l in L],
    "q3": [int(l % 4 != 0) for l in L],
    "r1": [R.randint(0, 1) for l in L],
    "none": [0] * 32,
}

SIZES = {
    "z16": [16] * 32,
    "z0": [0] * 32,
    "z16_0": [16 if l % 2 == 0 else 0 for l in L],
    "z8": [8] * 32,
    "z4_12": [4 if l % 2 else 12 for l in L],
    "zmix": [R.choice([0, 4, 8, 12, 16]) for l in L],
}


def line(form, name, dst, src, val):
    assert all(0 <= d < 256 for d in dst) and all(0 <= s < 4096 for s in src)
    return f"{form} 1 {name} " + " ".join(str(x) for x in dst + src + val)


def main():
    out = []
    # FORM 2 (plain): every source pattern x every destination layout
    for sn, s in SRC.items():
        for dn, d in DST.items():
            out.append(line(2, f"{sn}:{dn}", d, s, [1] * 32))
    # plain, random crowded layouts: 1-4 source lines, 1-4 shared rows, chunks repeated
    for i in range(40):
        nl, nr = R.randint(1, 4), R.randint(1, 4)
        pool = [R.randrange(8 * nl) for _ in range(R.randint(4, 16))]
        s = [R.choice(pool) + 32 * (i % 3) for _ in L]
        dch = R.sample(range(8 * nr), min(32, 8 * nr))
        d = [dch[l % len(dch)] for l in L]
        out.append(line(2, f"rnd{i}:l{nl}r{nr}", d, s, [1] * 32))
    # FORM 0 (source predicate): crowded sources x four destinations x masks
    for sn in ["s_contig", "s_dup2", "s_dup4", "s_h010", "s_h0101", "s_h0011", "s_mod2", "s_mod8", "s_h010_sh"]:
        for dn in ["d_contig", "d_str2", "d_xor", "d_shift1"]:
            for mn, m in MASKS.items():
                out.append(line(0, f"{sn}:{dn}:{mn}", DST[dn], SRC[sn], m))
    # FORM 1 (src-size register, .ZFILL): crowded sources x four destinations x sizes
    for sn in ["s_contig", "s_dup2", "s_dup4", "s_h010", "s_h0101", "s_mod8"]:
        for dn in ["d_contig", "d_str2", "d_xor", "d_shift1"]:
            for zn, z in SIZES.items():
                out.append(line(1, f"{sn}:{dn}:{zn}", DST[dn], SRC[sn], z))
    print("\n".join(out))


if __name__ == "__main__":
    main()
