#!/usr/bin/env python3
"""LDGSTS (cp.async) wavefront rules: each candidate against every measured row.

Usage: python3 calibration/ldsm/ldgsts_rules.py   (reads measured*.tsv beside it and the tables of
calibration/cpasync/; prints, per candidate, how many rows it breaks). Pure Python, no packages.

Three questions (README.md, rules 3-5):
  1. cp.async.cg 16 B (LDGSTS.E.BYPASS.128), every layout; 1b. (open) the fresh rows of
     measured_cg16_check.tsv where a 32-byte source sector is read by three or more kept lanes;
  2. cp.async.ca when a phase has bank conflicts on both the shared and the source side (found: the
     union of a word's two bank queues, README rule 3; the candidates below are the search record);
  3. cg 16 B with src-size 8 (LDGSTS.E.BYPASS.128.ZFILL).
The rule of question 1 is implemented in crates/model/src/matrix.rs and replayed by
crates/model/tests/matrix_calibration.rs; this script is the search record.
"""
import collections
import itertools
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CPASYNC = os.path.join(HERE, "..", "cpasync")
METRIC = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"


def load(name):
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(HERE, name)) if not l.startswith("#")]
    h = rows[0]
    out = []
    for r in rows[1:]:
        d = dict(zip(h, r))
        if d["kind"] != "ldgsts":
            continue
        d["a"] = [None if d[f"a{l}"] == "-" else int(d[f"a{l}"]) for l in range(32)]
        d["g"] = [int(d[f"g{l}"]) for l in range(32)]
        d["m"] = int(d["ldgsts_wavefronts"])
        d["table"] = name
        out.append(d)
    return out


def load_cpasync():
    """calibration/cpasync/: 16-byte rows of measured_h100.tsv and every row of measured16_h100.tsv."""
    out = []
    lines = open(os.path.join(CPASYNC, "measured16_h100.tsv")).read().splitlines()
    col = lines[0].split("\t").index(METRIC)
    for ln in lines[1:]:
        c = ln.split("\t")
        ds, ss, off = int(c[0]), int(c[1]), int(c[2])
        a = [4 * (((t * ds + off) * 4) % 8188) for t in range(32)]
        g = [16 * t * ss for t in range(32)]
        out.append({"form": "cg16", "desc": f"cp16 d{ds} s{ss} o{off}", "a": a, "g": g, "m": int(c[col]),
                    "table": "cpasync/measured16_h100.tsv"})
    lines = open(os.path.join(CPASYNC, "measured_h100.tsv")).read().splitlines()
    col = lines[0].split("\t").index(METRIC)
    for ln in lines[1:]:
        c = ln.split("\t")
        w, st = int(c[0]), int(c[1])
        if w != 16:
            continue
        a = [4 * ((t * st * 4) % (8192 - 4)) for t in range(32)]
        g = [t * 16 for t in range(32)]
        out.append({"form": "cg16", "desc": f"cpasync w16 stride {st}", "a": a, "g": g, "m": int(c[col]),
                    "table": "cpasync/measured_h100.tsv"})
    return out


ROWS = load("measured.tsv") + load("measured_heldout.tsv") + load("measured_targeted.tsv")
CG = [r for r in ROWS if r["form"] == "cg16"] + load_cpasync()


# ---------------------------------------------------------------------------------------------------
# 1. cp.async.cg, 16 bytes.
#
# The rule. Lanes writing a 16-byte destination chunk that a lower lane already writes are dropped.
# Each remaining lane moves one 16-byte piece from source line L = src / 128, sector S = (src / 32) % 4,
# half hs = (src / 16) % 2 into shared row R = dst / 128, sector D = (dst / 32) % 4, half hd.
# A source sector whose two halves (exactly two lanes) land in one destination sector is one unit of
# class "whole, swapped = hs != hd"; any other piece is a unit of class "half (hs, hd)".
# A wavefront serves units of one (L, R, class) whose sectors all move by one map of the square's
# symmetries (D4): a shift D = S + k or a mirror D = k - S (mod 4). Each unit admits exactly one
# shift (D - S) and one mirror (D + S), so the fewest maps covering a class is a minimum vertex cover
# of the bipartite graph shift -- mirror with one edge per unit = its maximum matching (Konig).
# The instruction takes the sum over (L, R, class).

def pieces(r, dedupe="first"):
    seen = {}
    for l in range(32):
        if r["a"][l] is None:
            continue
        k = r["a"][l] // 16
        if dedupe == "none":
            seen[(k, l)] = l
        elif dedupe == "last" or k not in seen:
            seen[k] = l
    out = []
    for l in sorted(seen.values()):
        s, d = r["g"][l], r["a"][l]
        out.append(dict(lane=l, line=s // 128, S=(s // 32) % 4, hs=(s // 16) % 2, sc=s // 16,
                        row=d // 128, D=(d // 32) % 4, hd=(d // 16) % 2, dc=d // 16))
    return out


def units(ps, whole=True):
    by = collections.defaultdict(list)
    for p in ps:
        by[(p["line"], p["S"])].append(p)
    out = []
    for v in by.values():
        if (whole and len(v) == 2 and v[0]["hs"] != v[1]["hs"] and v[0]["row"] == v[1]["row"]
                and v[0]["D"] == v[1]["D"]):
            p = v[0]
            out.append((p["line"], p["row"], ("whole", p["hs"] ^ p["hd"]), p["S"], p["D"]))
        else:
            out += [(p["line"], p["row"], ("half", p["hs"], p["hd"]), p["S"], p["D"]) for p in v]
    return out


def max_matching(edges):
    adj = collections.defaultdict(set)
    for a, b in edges:
        adj[a].add(b)
    match = {}

    def aug(a, seen):
        for b in adj[a]:
            if b not in seen:
                seen.add(b)
                if b not in match or aug(match[b], seen):
                    match[b] = a
                    return True
        return False
    return sum(aug(a, set()) for a in list(adj))


def cg_rule(r):
    groups = collections.defaultdict(set)
    for line, row, cls, S, D in units(pieces(r)):
        groups[(line, row, cls)].add(((D - S) % 4, (D + S) % 4))
    return sum(max_matching(e) for e in groups.values())


# Alternatives: the same pieces and units, a pass = (group, sector map from a family), fewest passes.
def family(name):
    maps = set()
    for k in range(4):
        if "shift" in name:
            maps.add(tuple((x + k) % 4 for x in range(4)))
        if "mirror" in name:
            maps.add(tuple((k - x) % 4 for x in range(4)))
        if "xor" in name:
            maps.add(tuple(x ^ k for x in range(4)))
    if name == "any":
        maps = set(itertools.permutations(range(4)))
    return sorted(maps)


def min_cover(n, sets):
    full = (1 << n) - 1
    frontier, k = {0}, 0
    while full not in frontier:
        k += 1
        nxt = set()
        for st in frontier:
            low = ~st & (st + 1)
            nxt |= {st | m for m in sets if m & low}
        frontier = nxt
    return k


def cg_cover(r, maps, dedupe="first", whole=True, pool_lines=False, half_in_whole=False):
    us = units(pieces(r, dedupe), whole)
    groups = collections.defaultdict(list)
    for line, row, cls, S, D in us:
        groups[(None if pool_lines else line, row)].append((cls, S, D))
    total = 0
    for v in groups.values():
        v = sorted(set(v))
        classes = [("whole", 0), ("whole", 1)] + [("half", a, b) for a in (0, 1) for b in (0, 1)]
        sets = set()
        for f in maps:
            for c in classes:
                m = 0
                for i, (cls, S, D) in enumerate(v):
                    if f[S] != D:
                        continue
                    if cls == c or (half_in_whole and c[0] == "whole" and cls[0] == "half"
                                    and cls[1] ^ cls[2] == c[1]):
                        m |= 1 << i
                if m:
                    sets.add(m)
        total += min_cover(len(v), sets)
    return total


def chunk_keys(r, key):
    ps = pieces(r)
    return len({(p["line"], p["row"], key(p["sc"] % 8, p["dc"] % 8)) for p in ps})


def chunk_cover(r):
    # 16-byte granularity: a pass = (line, row, map x -> (x + 2k) ^ b on the chunk index)
    maps = sorted({tuple(((x + 2 * k) % 8) ^ b for x in range(8)) for k in range(4) for b in range(8)})
    ps = pieces(r)
    groups = collections.defaultdict(list)
    for p in ps:
        groups[(p["line"], p["row"])].append((p["sc"] % 8, p["dc"] % 8))
    t = 0
    for v in groups.values():
        v = sorted(set(v))
        sets = {sum(1 << i for i, (s, d) in enumerate(v) if f[s] == d) for f in maps} - {0}
        t += min_cover(len(v), sets)
    return t


def old_rule(r):
    """README rule 4 before this search: one destination -> 1; each source line into one row under one
    chunk XOR -> 1 per line; anything else None (no rule)."""
    ls = [l for l in range(32) if r["a"][l] is not None]
    if len({r["a"][l] for l in ls}) == 1:
        return 1
    lines = collections.defaultdict(set)
    for l in ls:
        lines[r["g"][l] // 128].add((r["a"][l] // 128, (r["a"][l] // 16 ^ r["g"][l] // 16) % 8))
    return len(lines) if all(len(v) == 1 for v in lines.values()) else None


def cg_report():
    print(f"cp.async.cg 16 B: {len(CG)} rows ({sum(r['table'].startswith('cpasync') for r in CG)} of them "
          f"from calibration/cpasync/)")
    old = [r for r in CG if old_rule(r) is not None]
    print(f"  previous rule (one line into one row under one XOR): covers {len(old)} (NoRule elsewhere), breaks "
          f"{sum(old_rule(r) != r['m'] for r in old)} of those")
    cands = [
        ("THE RULE (shift or mirror of sectors per class, max matching)", cg_rule),
        ("same, as a fewest-passes cover over D4 (check)", lambda r: cg_cover(r, family("shift+mirror"))),
        ("any permutation of the four sectors per pass", lambda r: cg_cover(r, family("any"))),
        ("sector shifts and XORs only (no pure mirror)", lambda r: cg_cover(r, family("shift+xor"))),
        ("sector shifts only", lambda r: cg_cover(r, family("shift"))),
        ("sector XORs only", lambda r: cg_cover(r, family("xor"))),
        ("source lines of one shared row pooled", lambda r: cg_cover(r, family("shift+mirror"), pool_lines=True)),
        ("same-destination lanes kept (no drop)", lambda r: cg_cover(r, family("shift+mirror"), dedupe="none")),
        ("same-destination: the highest lane kept", lambda r: cg_cover(r, family("shift+mirror"), dedupe="last")),
        ("no whole-sector units (every 16-B piece by halves)", lambda r: cg_cover(r, family("shift+mirror"), whole=False)),
        ("whole-sector passes also take single pieces", lambda r: cg_cover(r, family("shift+mirror"), half_in_whole=True)),
        ("distinct (line, row, chunk XOR)", lambda r: chunk_keys(r, lambda s, d: s ^ d)),
        ("distinct (line, row, chunk rotation)", lambda r: chunk_keys(r, lambda s, d: (d - s) % 8)),
        ("distinct (line, row, chunk rotation, source parity)", lambda r: chunk_keys(r, lambda s, d: ((d - s) % 8, s % 2))),
        ("distinct (line, row, sector rotation, swap)", lambda r: chunk_keys(r, lambda s, d: ((d // 2 - s // 2) % 4, (s ^ d) & 1))),
        ("fewest chunk maps (x + 2k) ^ b per (line, row)", chunk_cover),
    ]
    for name, f in cands:
        bad = [r for r in CG if f(r) != r["m"]]
        per = collections.Counter(r["table"] for r in bad)
        print(f"  {name}: breaks {len(bad)}  {dict(per)}")


# ---------------------------------------------------------------------------------------------------
# 2. cp.async.ca with conflicts on both sides of a phase.

def ca_items(r, w, lanes):
    return [(l, k, (r["a"][l] // 4 + k) % 32, (r["g"][l] // 4 + k) % 32) for l in lanes for k in range(w // 4)]


def sched_inorder(it):
    pend, n = list(it), 0
    while pend:
        n += 1
        ud, us, rest = set(), set(), []
        for x in pend:
            if x[2] not in ud and x[3] not in us:
                ud.add(x[2])
                us.add(x[3])
            else:
                rest.append(x)
        pend = rest
    return n


def sched_heads(it, first):
    # per wavefront: the head (lowest lane) of each `first`-side bank queue is a candidate; the lowest
    # candidate per other-side bank is served
    a, b = (3, 2) if first == "src" else (2, 3)
    pend, n = list(it), 0
    while pend:
        n += 1
        heads = {}
        for x in pend:
            heads.setdefault(x[a], x)
        served = {}
        for x in sorted(heads.values()):
            served.setdefault(x[b], x)
        ids = {id(x) for x in served.values()}
        pend = [x for x in pend if id(x) not in ids]
    return n


def sched_both_heads(it):
    pend, n = list(it), 0
    while pend:
        n += 1
        hd, hs = {}, {}
        for x in pend:
            hd.setdefault(x[2], x)
            hs.setdefault(x[3], x)
        pend = [x for x in pend if not (hd[x[2]] is x and hs[x[3]] is x)]
    return n


def rounds(it, a, b):
    cnt, rs = collections.Counter(), collections.defaultdict(list)
    for x in it:
        cnt[x[a]] += 1
        rs[cnt[x[a]]].append(x)
    return sum(max(collections.Counter(x[b] for x in v).values()) for v in rs.values())


def load_side(it, k):
    return max(collections.Counter(x[k] for x in it).values())


def union_queues(it):
    d = collections.Counter(x[2] for x in it)
    s = collections.Counter(x[3] for x in it)
    both = collections.Counter((x[2], x[3]) for x in it)
    return max(d[x[2]] + s[x[3]] - both[(x[2], x[3])] for x in it)


def ca(r, phase_cost, w=None):
    w = w or int(r["form"][2:])
    P = 128 // w
    lanes = [l for l in range(32) if r["a"][l] is not None]
    t = 0
    for p in range(32 // P):
        ph = [l for l in lanes if l // P == p]
        if ph:
            t += phase_cost(ca_items(r, w, ph))
    return t


def both_sided(r):
    w = int(r["form"][2:])
    P = 128 // w
    lanes = [l for l in range(32) if r["a"][l] is not None]
    for p in range(32 // P):
        ph = [l for l in lanes if l // P == p]
        if ph:
            it = ca_items(r, w, ph)
            if load_side(it, 2) > 1 and load_side(it, 3) > 1:
                return True
    return False


def ca_report():
    cas = [r for r in ROWS if r["form"] in ("ca4", "ca8", "ca16")]
    both = [r for r in cas if both_sided(r)]
    rule = lambda it: max(load_side(it, 2), load_side(it, 3))
    print(f"cp.async.ca: {len(cas)} rows, {len(both)} with a phase conflicted on both sides; "
          f"the larger side (the earlier rule) breaks {sum(ca(r, rule) != r['m'] for r in both)} of those")
    cands = [
        ("in-order greedy (a lane waits if its shared or source bank is taken)", sched_inorder),
        ("source bank queues' heads, then one per shared bank", lambda it: sched_heads(it, "src")),
        ("shared bank queues' heads, then one per source bank", lambda it: sched_heads(it, "dst")),
        ("a lane goes when it heads both of its bank queues", sched_both_heads),
        ("source rounds, each split by shared conflicts", lambda it: rounds(it, 3, 2)),
        ("shared rounds, each split by source conflicts", lambda it: rounds(it, 2, 3)),
        ("shared + source - 1", lambda it: load_side(it, 2) + load_side(it, 3) - 1),
        ("the union of a word's shared and source bank queues (rule 3)", union_queues),
    ]
    for name, f in cands:
        bad = [r for r in cas if ca(r, f) != r["m"]]
        print(f"  {name}: breaks {sum(r in both for r in bad)} of the {len(both)}, "
              f"{sum(r not in both for r in bad)} of the other {len(cas) - len(both)}")


# ---------------------------------------------------------------------------------------------------
# 3. src-size 8: the cg count plus the .ca 16-byte count of the same layout.

def z8_report():
    z8 = [r for r in ROWS if r["form"] == "cg16z8"]
    f = lambda r: cg_rule(r) + ca(r, lambda it: max(load_side(it, 2), load_side(it, 3)), 16)
    print(f"cp.async.cg src-size 8: {len(z8)} rows ({len({r['desc'] for r in z8})} layouts); "
          f"cg rule + ca16 rule breaks {sum(f(r) != r['m'] for r in z8)}; cg rule alone breaks "
          f"{sum(cg_rule(r) != r['m'] for r in z8)}")


# ---------------------------------------------------------------------------------------------------
# 1b. cp.async.cg 16 B where a 32-byte source sector is read by three or more kept lanes (open).
# measured_cg16_check.tsv (fresh, measured after rule 1 was fitted): 83 such rows, 298 others. Each
# candidate is scored on the 83 and on every other cg16 row (the 528 above and the 298 fresh).
# Nothing tried is exact. Destinations are unique after the drop, so "one piece per (source chunk,
# destination chunk)" and "count per destination chunk" are rule 1 itself (22 of 83). A lowest-lane-first
# greedy cover (shift or mirror, whichever takes more) equals the maximum matching on every row, so the
# gap is not the optimality of the cover. In 13 of the 83 rows the H100 counts more (by 1-2) than any
# choice of which crowded pairs move whole: some further cost of a multicast source chunk is missing.

CHECK = [r for r in load("measured_cg16_check.tsv") if r["form"] == "cg16"]


def crowded(r):
    ps = pieces(r)
    return (len({p["sc"] for p in ps}) > 1
            and max(collections.Counter(p["sc"] // 2 for p in ps).values()) > 2)


def count_units(us):
    groups = collections.defaultdict(set)
    for line, row, cls, S, D in us:
        groups[(line, row, cls)].add(((D - S) % 4, (D + S) % 4))
    return sum(max_matching(e) for e in groups.values())


def half_unit(p):
    return (p["line"], p["row"], ("half", p["hs"], p["hd"]), p["S"], p["D"])


def units_paired(ps, pair_ok=lambda v, dup: True):
    """Whole = the two pieces of one destination sector taken from the two halves of one source sector,
    whatever other lanes read that sector (pair_ok decides when the sector has more than two readers)."""
    dup = collections.Counter(p["sc"] for p in ps)
    sec = collections.Counter(p["sc"] // 2 for p in ps)
    by = collections.defaultdict(list)
    for p in ps:
        by[(p["line"], p["S"], p["row"], p["D"])].append(p)
    out = []
    for v in by.values():
        if (len(v) == 2 and v[0]["hs"] != v[1]["hs"]
                and (sec[v[0]["sc"] // 2] <= 2 or pair_ok(v, [dup[p["sc"]] > 1 for p in v]))):
            p = v[0]
            out.append((p["line"], p["row"], ("whole", p["hs"] ^ p["hd"]), p["S"], p["D"]))
        else:
            out += [half_unit(p) for p in v]
    return out


def by_rounds(r, key, reverse=False):
    # the k-th reader (lane order) of each source chunk / sector goes in round k; rounds are counted
    # apart (one round per copy of a multicast source)
    ps = pieces(r)
    n, rs = collections.Counter(), collections.defaultdict(list)
    for p in (reversed(ps) if reverse else ps):
        n[key(p)] += 1
        rs[n[key(p)]].append(p)
    return sum(count_units(units(sorted(v, key=lambda p: p["lane"]))) for v in rs.values())


def cover_apart(r, apart):
    """rule 1 (pairs as units_paired) with pieces that `apart` forbids from sharing a wavefront split:
    fewest passes (one map, pairwise allowed) covering each (line, row, class)."""
    ps = pieces(r)
    dup = collections.Counter(p["sc"] for p in ps)
    by = collections.defaultdict(list)
    for p in ps:
        by[(p["line"], p["S"], p["row"], p["D"])].append(p)
    groups = collections.defaultdict(list)
    for v in by.values():
        if len(v) == 2 and v[0]["hs"] != v[1]["hs"]:
            groups[(v[0]["line"], v[0]["row"], "whole", v[0]["hs"] ^ v[0]["hd"])].append(v)
        else:
            for p in v:
                groups[(p["line"], p["row"], p["hs"], p["hd"])].append([p])
    total = 0
    for v in groups.values():
        sets = set()
        for kind in (lambda S, D: (D - S) % 4, lambda S, D: 4 + (D + S) % 4):
            for k in range(8):
                fit = [i for i, u in enumerate(v) if kind(u[0]["S"], u[0]["D"]) == k]
                for m in range(1, len(fit) + 1):
                    for sub in itertools.combinations(fit, m):
                        if not any(apart(v[a], v[b], dup) for a, b in itertools.combinations(sub, 2)):
                            sets.add(sum(1 << i for i in sub))
        total += min_cover(len(v), sets)
    return total


def cg_crowded_report():
    hot = [r for r in CHECK if crowded(r)]
    rest = CG + [r for r in CHECK if not crowded(r)]
    isdup = lambda u, dup: any(dup[p["sc"]] > 1 for p in u)
    print(f"cp.async.cg 16 B, a source sector read by 3+ kept lanes: {len(hot)} fresh rows "
          f"(other cg16 rows: {len(rest)})")
    cands = [
        ("rule 1 as it stands (whole only for a sector of exactly two readers)", cg_rule),
        ("whole = a destination sector filled from both halves of one source sector (any readers)",
         lambda r: count_units(units_paired(pieces(r)))),
        ("  same, only when both or neither of the pair's chunks have other readers",
         lambda r: count_units(units_paired(pieces(r), lambda v, d: d[0] == d[1]))),
        ("  same, only for a swapped pair or both chunks with other readers",
         lambda r: count_units(units_paired(pieces(r), lambda v, d: v[0]["hs"] != v[0]["hd"] or all(d)))),
        ("  same, only for a swapped pair",
         lambda r: count_units(units_paired(pieces(r), lambda v, d: v[0]["hs"] != v[0]["hd"]))),
        ("one round per copy of a source chunk (k-th reader, lowest lane first)",
         lambda r: by_rounds(r, lambda p: p["sc"])),
        ("  same, highest lane first", lambda r: by_rounds(r, lambda p: p["sc"], True)),
        ("one round per reader of a source sector", lambda r: by_rounds(r, lambda p: p["sc"] // 2)),
        ("pairs as above; a piece whose source chunk has other readers goes alone",
         lambda r: cover_apart(r, lambda a, b, dup: isdup(a, dup) or isdup(b, dup))),
        ("pairs as above; two such pieces never share a wavefront",
         lambda r: cover_apart(r, lambda a, b, dup: isdup(a, dup) and isdup(b, dup))),
        ("pairs as above; only pieces with equally many readers share",
         lambda r: cover_apart(r, lambda a, b, dup: max(dup[p["sc"]] for p in a) != max(dup[p["sc"]] for p in b))),
    ]
    for name, f in cands:
        print(f"  {name}: breaks {sum(f(r) != r['m'] for r in hot)} of {len(hot)}, "
              f"{sum(f(r) != r['m'] for r in rest)} of the other {len(rest)}")
    # every choice of which candidate pairs (a sector of 3+ readers) move whole
    over = 0
    for r in hot:
        ps = pieces(r)
        sec = collections.Counter(p["sc"] // 2 for p in ps)
        by = collections.defaultdict(list)
        for p in ps:
            by[(p["line"], p["S"], p["row"], p["D"])].append(p)
        cand = [k for k, v in by.items() if len(v) == 2 and v[0]["hs"] != v[1]["hs"] and sec[v[0]["sc"] // 2] > 2]
        best = []
        for n in range(len(cand) + 1):
            for ch in itertools.combinations(cand, n):
                us = []
                for k, v in by.items():
                    if len(v) == 2 and v[0]["hs"] != v[1]["hs"] and (sec[v[0]["sc"] // 2] <= 2 or k in ch):
                        p = v[0]
                        us.append((p["line"], p["row"], ("whole", p["hs"] ^ p["hd"]), p["S"], p["D"]))
                    else:
                        us += [half_unit(p) for p in v]
                best.append(count_units(us))
        over += r["m"] > max(best)
    print(f"  rows above every choice of which such pairs move whole: {over} of {len(hot)}")


if __name__ == "__main__":
    cg_report()
    cg_crowded_report()
    ca_report()
    z8_report()
