#!/usr/bin/env python3
"""Counts how many measured rows each plausible alternative to the rules of README.md breaks.

Usage: python3 calibration/ldsm/alternatives.py   (reads measured*.tsv beside it; prints a table)
The rules themselves are replayed by crates/model/tests/matrix_calibration.rs.
"""
import collections
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NL = {"x1": 8, "x2": 16, "x4": 32, "x1t": 8, "x2t": 16, "x4t": 32}


def load(name):
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(HERE, name)) if not l.startswith("#")]
    h = rows[0]
    out = []
    for r in rows[1:]:
        d = dict(zip(h, r))
        d["a"] = [None if d[f"a{l}"] == "-" else int(d[f"a{l}"]) for l in range(32)]
        d["g"] = [int(d[f"g{l}"]) for l in range(32)]
        out.append(d)
    return out


rows = load("measured.tsv") + load("measured_heldout.tsv") + load("measured_targeted.tsv")


def group_cost(addrs, multicast=True):
    per = collections.defaultdict(list)
    for a in addrs:
        per[(a // 16) % 8].append(a // 16)
    return max((len(set(v)) if multicast else len(v) for v in per.values()), default=0)


def mat_rule(r, multicast=True):
    n = NL[r["form"]]
    return sum(group_cost([r["a"][l] for l in range(8 * m, 8 * m + 8) if r["a"][l] is not None], multicast)
               for m in range(n // 8))


def mat_pooled(r):
    # all matrices of the instruction served together, at least one wavefront per matrix
    n = NL[r["form"]]
    return max(group_cost([r["a"][l] for l in range(n) if r["a"][l] is not None]), n // 8)


def mat_dedup(r):
    # identical matrices (same eight rows) read once
    n = NL[r["form"]]
    seen, t = set(), 0
    for m in range(n // 8):
        rows_ = tuple(r["a"][8 * m:8 * m + 8])
        if rows_ in seen:
            continue
        seen.add(rows_)
        t += group_cost([a for a in rows_ if a is not None])
    return t


def mat_all_lanes(r):
    # every lane's address counts (not only lanes 0..8n-1)
    return sum(group_cost([r["a"][l] for l in range(8 * m, 8 * m + 8) if r["a"][l] is not None]) for m in range(4))


mat = [r for r in rows if r["kind"] in ("ldsm", "stsm")]


def mat_measured(r):
    return int(r["sass_ldsm_wavefronts"] if r["kind"] == "ldsm" else r["sass_stsm_wavefronts"])


def hw(r):
    return int(r["ld_wavefronts"] if r["kind"] == "ldsm" else r["st_wavefronts"])


print(f"ldmatrix/stmatrix: {len(mat)} rows")
for name, f in (("the rule", mat_rule), ("no multicast within a matrix", lambda r: mat_rule(r, False)),
                ("matrices pooled in one request", mat_pooled), ("identical matrices merged", mat_dedup),
                ("lanes beyond 8n count too", mat_all_lanes)):
    print(f"  {name}: breaks {sum(f(r) != mat_measured(r) for r in mat)}")
partial = [r for r in mat if any(a is None for a in r["a"])]
print(f"  partial warps counted in op_ld/op_st as in op_ldsm/op_stsm: breaks "
      f"{sum(hw(r) != mat_rule(r) for r in partial if mat_rule(r) > 0)} of {len(partial)}")


def load_(addrs, w, lanes, multicast=False):
    per = collections.defaultdict(list)
    for l in lanes:
        for k in range(w // 4):
            per[(addrs[l] // 4 + k) % 32].append(addrs[l] // 4 + k)
    return max((len(set(v)) if multicast else len(v) for v in per.values()), default=0)


def ca(r, w, side="max", phases=True, multicast=False):
    lanes = [l for l in range(32) if r["a"][l] is not None]
    P = 128 // w if phases else 32
    t = 0
    for p in range(32 // P):
        ph = [l for l in lanes if l // P == p]
        if not ph:
            continue
        d = load_(r["a"], w, ph, multicast)
        s = load_(r["g"], w, ph, multicast)
        t += {"max": max(d, s), "dst": d, "src": s, "sum": d + s}[side]
    return t


def in_domain(r, w):
    lanes = [l for l in range(32) if r["a"][l] is not None]
    P = 128 // w
    for p in range(32 // P):
        ph = [l for l in lanes if l // P == p]
        if ph and load_(r["a"], w, ph) > 1 and load_(r["g"], w, ph) > 1:
            return False
    return True


cas = [(r, int(r["form"][2:])) for r in rows if r["kind"] == "ldgsts" and r["form"].startswith("ca")]
dom = [(r, w) for r, w in cas if in_domain(r, w)]
print(f"cp.async.ca: {len(cas)} rows, {len(dom)} in the rule's domain (no phase with conflicts on both sides)")
for name, f in (("the rule", lambda r, w: ca(r, w)), ("shared side only", lambda r, w: ca(r, w, "dst")),
                ("source side only", lambda r, w: ca(r, w, "src")), ("sum of both sides", lambda r, w: ca(r, w, "sum")),
                ("one phase of 32 lanes for 8/16 B", lambda r, w: ca(r, w, phases=False)),
                ("multicast of equal words", lambda r, w: ca(r, w, multicast=True))):
    print(f"  {name}: breaks {sum(f(r, w) != int(r['ldgsts_wavefronts']) for r, w in dom)} in the domain, "
          f"{sum(f(r, w) != int(r['ldgsts_wavefronts']) for r, w in cas)} of all")
