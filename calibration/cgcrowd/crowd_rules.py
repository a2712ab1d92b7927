#!/usr/bin/env python3
"""Candidate rules for the shared wavefronts of 16-byte cp.async.cg copies where a 32-byte source
sector is read by three or more lanes (the search record). `rounds_rule` equals every copy measured
(README, question 1); the other candidates are the alternatives it was chosen over.
Reads measured.tsv / layouts.txt (the battery: routing part = wavefronts less the zero-fill pass,
which the conflicts counter gives exactly) and measured2.tsv / layouts2.txt (one-row
configurations, the filler's lanes included), measured3.tsv / layouts3.txt (the third round,
measured after `rounds_rule` was committed: predicted3.tsv) and calibration/ldsm's H100 tables. Prints, per candidate and family, the copies it breaks.
Usage: crowd_rules.py"""
import collections
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ldsm"))
sys.path.insert(0, os.path.join(HERE, "..", "srcpred"))
import ldgsts_rules as L  # noqa: E402
import rules as SP  # noqa: E402

ALL = 0xFFFFFFFF


def rowdict(d, s, lanes, m, desc):
    return {"a": [d[l] * 16 if lanes >> l & 1 else None for l in range(32)], "g": [x * 16 for x in s],
            "m": m, "desc": desc}


def battery():
    """Routing part of every copy of the first battery (the lanes routed, the count)."""
    lay = [l.split() for l in open(os.path.join(HERE, "layouts.txt"))]
    out = []
    for m in csv.DictReader(open(os.path.join(HERE, "measured.tsv")), delimiter="\t"):
        f = lay[int(m["launch"])]
        form, v = int(f[0]), [int(x) for x in f[3:]]
        d, s = v[:32], v[32:64]
        rd = int(m["reads"], 16)
        if form == 0:
            rl = rd if rd == ALL else rd & SP.first_writers(d, ALL)
            zf_pass = 0 if rd == ALL else int(m["conflicts"]) + 4
        elif form == 1:
            rl, zf_pass = rd, int(m["conflicts"]) + 4
        else:
            rl, zf_pass = ALL, 0
        if rl:
            out.append(rowdict(d, s, rl, int(m["wavefronts"]) - zf_pass, f"{form}:{f[2]}"))
    return out


def one_row(layouts="layouts2.txt", measured="measured2.tsv"):
    lay = [l.split() for l in open(os.path.join(HERE, layouts))]
    out = []
    for m in csv.DictReader(open(os.path.join(HERE, measured)), delimiter="\t"):
        f = lay[int(m["launch"])]
        v = [int(x) for x in f[3:]]
        out.append(rowdict(v[:32], v[32:64], ALL, int(m["wavefronts"]), f[2]))
    return out


def units(r):
    """Pieces of the kept lanes in lane order; a destination sector filled from both halves of one
    source sector is one whole unit (whatever else reads that sector)."""
    ps = L.pieces(r)
    by = collections.defaultdict(list)
    for p in ps:
        by[(p["line"], p["S"], p["row"], p["D"])].append(p)
    out = []
    for v in by.values():
        if len(v) == 2 and v[0]["hs"] != v[1]["hs"]:
            p = min(v, key=lambda p: p["lane"])
            out.append(dict(lane=p["lane"], line=p["line"], row=p["row"], cls=("whole", p["hs"] ^ p["hd"]),
                            S=p["S"], D=p["D"], hs=None))
        else:
            out += [dict(lane=p["lane"], line=p["line"], row=p["row"], cls=("half", p["hs"], p["hd"]),
                         S=p["S"], D=p["D"], hs=p["hs"]) for p in v]
    return out


def cover(us, key):
    g = collections.defaultdict(set)
    for u in us:
        g[key(u)].add(((u["D"] - u["S"]) % 4, (u["D"] + u["S"]) % 4))
    return sum(L.max_matching(e) for e in g.values())


def rounds(r, by="sector", reverse=True):
    """The k-th read of a source sector (or chunk), counted from the highest lane down, shares a
    wavefront only with k-th reads of other sectors; within a round, rule 4's cover."""
    us = units(r)
    n = collections.Counter()
    for u in sorted(us, key=lambda u: -u["lane"] if reverse else u["lane"]):
        k = (u["line"], u["S"]) if by == "sector" else (u["line"], u["S"], u["hs"])
        n[k] += 1
        u["round"] = n[k]
    return cover(us, lambda u: (u["line"], u["row"], u["cls"], u["round"]))


def rounds_rule(r, key=("row", "hd"), order=-1, unit_round="rank"):
    """The rule. Each kept lane's round is its rank, from the highest lane down, among the kept lanes
    that read its 16-byte source chunk into its 128-byte shared row and its destination half. A
    destination sector filled from the two halves of one source sector in one round moves whole
    (straight or swapped); every other piece alone (source half, destination half). Rule 4's cover
    (fewest shifts and mirrors) per (source line, shared row, class, round); the counts add.
    Variants: `key` drops the row or the half from the rank's key, `order=1` ranks from the lowest
    lane, `unit_round="class"` counts rounds per class instead (a unit's rank among the units of its
    class reading its source sector)."""
    ps = L.pieces(r)
    rank = collections.Counter()
    for p in sorted(ps, key=lambda p: order * p["lane"]):
        k = (p["line"], p["sc"]) + tuple(p[x] for x in key)
        rank[k] += 1
        p["round"] = rank[k]
    by = collections.defaultdict(list)
    for p in ps:
        by[(p["line"], p["S"], p["row"], p["D"])].append(p)
    us = []
    for v in by.values():
        if len(v) == 2 and v[0]["hs"] != v[1]["hs"] and v[0]["round"] == v[1]["round"]:
            p = v[0]
            us.append(dict(lane=max(q["lane"] for q in v), line=p["line"], row=p["row"],
                           cls=("whole", p["hs"] ^ p["hd"]), S=p["S"], D=p["D"], round=p["round"]))
        else:
            us += [dict(lane=p["lane"], line=p["line"], row=p["row"], cls=("half", p["hs"], p["hd"]), S=p["S"],
                        D=p["D"], round=p["round"]) for p in v]
    if unit_round == "class":
        n = collections.Counter()
        for u in sorted(us, key=lambda u: order * u["lane"]):
            k = (u["line"], u["row"], u["cls"], u["S"])
            n[k] += 1
            u["round"] = n[k]
    return cover(us, lambda u: (u["line"], u["row"], u["cls"], u["round"]))


CANDIDATES = [
    ("THE RULE: rounds per (source chunk, shared row, destination half), highest lane first", rounds_rule),
    ("  same, rounds per (source chunk, shared row)", lambda r: rounds_rule(r, key=("row",))),
    ("  same, rounds per (source chunk, destination half)", lambda r: rounds_rule(r, key=("hd",))),
    ("  same, lowest lane first", lambda r: rounds_rule(r, order=1)),
    ("  same, a unit's round counted within its class", lambda r: rounds_rule(r, unit_round="class")),
    ("rule 4 (crowded sectors' pieces by halves)", L.cg_rule),
    ("whole units whatever else reads the sector", lambda r: cover(units(r), lambda u: (u["line"], u["row"], u["cls"]))),
    ("rounds of sector reads, highest lane first", lambda r: rounds(r, "sector", True)),
    ("rounds of sector reads, lowest lane first", lambda r: rounds(r, "sector", False)),
    ("rounds of chunk reads, highest lane first", lambda r: rounds(r, "chunk", True)),
    ("rounds of chunk reads, lowest lane first", lambda r: rounds(r, "chunk", False)),
]


def main():
    fams = collections.defaultdict(list)
    for r in one_row():
        fams["one-row " + r["desc"].split(":")[0]].append(r)
    for r in one_row("layouts3.txt", "measured3.tsv"):
        fams["third round (blind) " + r["desc"].split(":")[0]].append(r)
    for r in battery():
        fams["battery crowded" if L.crowded(r) else "battery in domain"].append(r)
    h100 = L.CHECK + [x for x in L.load("measured_cg16_dup.tsv") if x["form"] == "cg16"]
    fams["H100 check+dup crowded"] = [r for r in h100 if L.crowded(r)]
    fams["H100 check+dup other"] = [r for r in h100 if not L.crowded(r)]
    fams["H100 fitted"] = L.CG
    print("copies broken, per family (size):")
    print("\t".join(["candidate"] + [f"{k} ({len(v)})" for k, v in fams.items()]))
    for name, f in CANDIDATES:
        print("\t".join([name] + [str(sum(f(r) != r["m"] for r in v)) for v in fams.values()]))


if __name__ == "__main__":
    main()
