#!/usr/bin/env python3
"""Layouts and read masks for pz.cu: one line per (layout, mask): name, 32 dst chunks, 32 src chunks,
32 per-lane masks (bit c set: copy c reads its source; every copy of a launch gets the same mask)."""
import random

def trit_swz(t):  # Triton's shared layout: chunk t of 8-chunk row t//8, XORed with the row
    return (t // 8) * 8 + ((t % 8) ^ ((t // 8) % 8))

L = {}
L["contig"] = ([t for t in range(32)], [t for t in range(32)])
L["e4m3"] = ([trit_swz(t) for t in range(32)], [9 * (t // 4) + t % 4 for t in range(32)])
L["e4m3tail"] = ([trit_swz(t) for t in range(32)], [9 * (t // 4) + t % 4 + 8 for t in range(32)])
L["tf32s0"] = ([trit_swz(t) for t in range(32)], [36 * (t // 8) + t % 8 for t in range(32)])
L["tf32s1"] = ([trit_swz(t) for t in range(32)], [36 * (t // 8) + t % 8 + 8 for t in range(32)])
L["splitk0"] = ([trit_swz(t) for t in range(32)], [32 * (t // 4) + t % 4 for t in range(32)])
L["splitk1"] = ([trit_swz(t) for t in range(32)], [32 * (t // 4) + t % 4 + 4 for t in range(32)])
L["dst2"] = ([2 * t for t in range(32)], [t for t in range(32)])
L["tworows"] = ([16 * (t // 8) + (t % 8) // 2 + 8 * (t % 2) for t in range(32)], [t for t in range(32)])
L["dstpairs"] = ([t // 2 for t in range(32)], [t for t in range(32)])
L["dst8"] = ([8 * t for t in range(32)], [t for t in range(32)])
L["src7"] = ([t for t in range(32)], [7 * t for t in range(32)])
L["srcrev"] = ([t for t in range(32)], [31 - t for t in range(32)])
L["src2"] = ([t for t in range(32)], [2 * t for t in range(32)])
rng = random.Random(30)
perm = list(range(32)); rng.shuffle(perm)
L["perm"] = (perm, [t for t in range(32)])
L["shift1"] = ([t + 1 for t in range(32)], [t for t in range(32)])

M = {
    "all": 0xFFFFFFFF, "none": 0, "even": 0x55555555, "low16": 0x0000FFFF,
    "q1": 0x11111111, "q3": 0xEEEEEEEE,
    "r1": rng.getrandbits(32), "r2": rng.getrandbits(32), "lo4": 0x0F0F0F0F,
}
order = ["e4m3", "e4m3tail", "tf32s0", "tf32s1", "splitk0", "splitk1", "dst2", "tworows", "dstpairs"]
order += [k for k in L if k not in order]
lines = []
for ln in order:
    d, s = L[ln]
    assert len(set(d)) == len(d) or ln == "dstpairs"
    assert max(d) < 256
    for mn, m in M.items():
        masks = [0xFF if m >> t & 1 else 0 for t in range(32)]
        lines.append((f"{ln}:{mn}", d, s, masks))
mixed = []

# copies with different masks in one launch (copy c gets the mask named c-th in the rotation)
names = list(M)
for ln in ["contig", "e4m3", "splitk0", "dst2", "tworows", "tf32s1"]:
    d, s = L[ln]
    for k in (0, 3):
        rot = [names[(c + k) % len(names)] for c in range(8)]
        masks = [sum(1 << c for c in range(8) if M[rot[c]] >> t & 1) for t in range(32)]
        mixed.append((f"{ln}:mix{k}:" + ",".join(rot), d, s, masks))
# the first 9 layouts, then the mixed launches, then the rest
for n, d, s, m in lines[:9 * len(M)] + mixed + lines[9 * len(M):]:
    print(n, *d, *s, *m)
