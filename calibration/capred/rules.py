#!/usr/bin/env python3
"""Candidate rules for the shared wavefronts Nsight Compute counts per instruction for pca.cu's
copies (cp.async with a source predicate: `LDGSTS.E{,.64,.128} [d], [s], P` from a `.ca` copy whose
src-size is a selp of its size and 0 or that has an ignore-src predicate, `LDGSTS.E.BYPASS.128
[d], [s], P` from a `.cg` copy with ignore-src), and the plain copy of each launch.

Usage: rules.py predict            -> predicted.tsv on stdout (the candidates' counts)
       rules.py check [MEASURED]   -> rows of measured.tsv each candidate breaks, by form
The 16-byte routing rule is calibration/ldsm's rule 4 (ldgsts_rules.cg_rule); the .ca union rule
is its rule 3; the .cg source-predicate rule is calibration/srcpred's."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ldsm"))
import ldgsts_rules as L  # noqa: E402

ALL = 0xFFFFFFFF


def layouts(path=os.path.join(HERE, "layouts.txt")):
    out = []
    for line in open(path):
        f = line.split()
        v = [int(x) for x in f[1:]]
        w, k, warps = v[0], v[1], v[2]
        t = v[3:]
        ex = sum(1 << l for l in range(32) if t[96 + l])
        out.append(dict(name=f[0], w=w, k=k, warps=warps, dst=t[:32], src=[4096 + s for s in t[32:64]],
                        rd=t[64:96], ex=ex))
    return out


def lanes_of(mask):
    return [l for l in range(32) if mask >> l & 1]


def union_pass(w, dst, src, lanes, reads, phase_lanes=None):
    """calibration/ldsm rule 3 over `lanes` in phases of 128 / w lanes: every (lane, word) waits behind
    the other words of its shared bank and (lanes of `reads`) of its source bank; a phase takes the
    largest union, the phases add."""
    n = phase_lanes or 128 // w
    total = 0
    for p in range(32 // n):
        d_bank, s_bank, pairs, any_lane = [0] * 32, [0] * 32, {}, False
        for l in range(n * p, n * p + n):
            if not lanes >> l & 1:
                continue
            any_lane = True
            for k in range(w // 4):
                db = (dst[l] // 4 + k) % 32
                d_bank[db] += 1
                if reads >> l & 1:
                    sb = (src[l] // 4 + k) % 32
                    s_bank[sb] += 1
                    pairs[(db, sb)] = pairs.get((db, sb), 0) + 1
        if any_lane:
            total += max([max(d_bank)] + [d_bank[a] + s_bank[b] - c for (a, b), c in pairs.items()])
    return total


def crowded(dst, src, lanes):
    """Whether rule 4 is outside its domain: a 32-byte source sector read by three or more kept lanes
    (unless every kept lane reads one 16-byte chunk)."""
    kept, seen = [], set()
    for l in lanes_of(lanes):
        if dst[l] // 16 not in seen:
            seen.add(dst[l] // 16)
            kept.append(l)
    if len({src[l] // 16 for l in kept}) <= 1:
        return False
    count = {}
    for l in kept:
        count[src[l] // 32] = count.get(src[l] // 32, 0) + 1
    return max(count.values(), default=0) > 2


def rule4(dst, src, lanes):
    if not lanes:
        return 0
    return L.cg_rule({"a": [dst[l] if lanes >> l & 1 else None for l in range(32)], "g": src})


def first_writers(dst, lanes):
    seen, out = set(), 0
    for l in lanes_of(lanes):
        if dst[l] // 16 not in seen:
            seen.add(dst[l] // 16)
            out |= 1 << l
    return out


def seen_reads(ex, reads, reg, neg):
    """The lanes Nsight Compute's instrumentation takes as reading (calibration/srcpred: P0 reads
    as false)."""
    if reg == 0:
        return ex if neg else 0
    return reads & ex


def cg_pred(dst, src, ex, seen):
    """calibration/srcpred's rule: every lane reading, rule 4; otherwise rule 4 over the reading
    lanes that first write their destination plus a union pass (8-lane phases) over every lane."""
    if seen == ex:
        return rule4(dst, src, ex)
    r = seen & first_writers(dst, ex)
    return rule4(dst, src, r) + union_pass(16, dst, src, ex, r)


def ca_candidates(w, dst, src, ex, reads, reg, neg):
    seen = seen_reads(ex, reads, reg, neg)
    true = reads & ex
    return {
        # rule 3 with only the lanes taken as reading contributing a source bank (P0 as false)
        "union_seen": union_pass(w, dst, src, ex, seen),
        # the same with the lanes that truly read (no P0 reading)
        "union_true": union_pass(w, dst, src, ex, true),
        # the predicate ignored: every lane's source counts
        "plain": union_pass(w, dst, src, ex, ex),
        # no source side at all
        "shared_only": union_pass(w, dst, src, ex, 0),
        # zero-filling lanes cost nothing: rule 3 over the lanes taken as reading
        "readers_only": union_pass(w, dst, src, seen, seen),
        # the reading lanes' rule 3, then a shared-only pass over the zero-filling lanes
        "two_passes": union_pass(w, dst, src, seen, seen) + union_pass(w, dst, src, ex & ~seen, 0),
    }


CA_NAMES = ["union_seen", "union_true", "plain", "shared_only", "readers_only", "two_passes"]


def cg_candidates(dst, src, ex, reads, reg, neg):
    seen = seen_reads(ex, reads, reg, neg)
    true = reads & ex
    if crowded(dst, src, ex):
        return None
    return {
        "srcpred": cg_pred(dst, src, ex, seen),
        "srcpred_true": cg_pred(dst, src, ex, true),
        "plain": rule4(dst, src, ex),
    }


CG_NAMES = ["srcpred", "srcpred_true", "plain"]


def copies():
    """(launch, layout, copy, form, reg, neg, reads) for every copy of every launch, in order."""
    out = []
    for i, lay in enumerate(layouts()):
        for neg in (0, 1):
            for c in range(8):
                reads = sum(1 << l for l in range(32) if lay["rd"][l] >> c & 1)
                if c == 7:
                    form = "plain"
                elif lay["k"] == 1:
                    form = "ignore"
                else:
                    form = "selp" if c < 6 else "ignore"
                out.append((2 * i + neg, lay, c, form, c if c < 7 else 7, neg, reads))
    return out


def counts(lay, c, form, reg, neg, reads):
    """Every candidate's count for one copy (all warps), or None outside the rules' domains."""
    w, dst, src, ex = lay["w"], lay["dst"], lay["src"], lay["ex"]
    if lay["k"] == 0:
        if form == "plain":
            v = {n: union_pass(w, dst, src, ex, ex) for n in CA_NAMES}
        else:
            v = ca_candidates(w, dst, src, ex, reads, reg, neg)
    else:
        if form == "plain":
            r = None if crowded(dst, src, ex) else rule4(dst, src, ex)
            v = None if r is None else {n: r for n in CG_NAMES}
        else:
            v = cg_candidates(dst, src, ex, reads, reg, neg)
    if v is None:
        return None
    return {n: x * lay["warps"] for n, x in v.items()}


def predict():
    print("launch\tname\tcopy\tform\tpredicate\texecute\treads\t" + "\t".join(
        f"ca:{n}" for n in CA_NAMES) + "\t" + "\t".join(f"cg:{n}" for n in CG_NAMES))
    for launch, lay, c, form, reg, neg, reads in copies():
        v = counts(lay, c, form, reg, neg, reads)
        pred = "-" if c == 7 else ("!" if neg else "") + f"P{reg}"
        cells = []
        for n in CA_NAMES:
            cells.append(str(v[n]) if v is not None and lay["k"] == 0 else "-")
        for n in CG_NAMES:
            cells.append(str(v[n]) if v is not None and lay["k"] == 1 else "-")
        print(f"{launch}\t{lay['name']}\t{c}\t{form}\t{pred}\t{lay['ex']:08x}\t{reads & lay['ex']:08x}\t"
              + "\t".join(cells))


def check(path):
    import csv
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    cps = copies()
    assert len(rows) == len(cps), (len(rows), len(cps))
    groups = {}
    for m, (launch, lay, c, form, reg, neg, reads) in zip(rows, cps):
        assert int(m["launch"]) == launch and int(m["copy"]) == c, (m, launch, c)
        want = int(m["wavefronts"])
        v = counts(lay, c, form, reg, neg, reads)
        key = ("ca" if lay["k"] == 0 else "cg") + ("_plain" if form == "plain" else "_pred")
        g = groups.setdefault(key, {"rows": 0, "outside": 0})
        if v is None:
            g["outside"] += 1
            continue
        g["rows"] += 1
        for n, x in v.items():
            g[n] = g.get(n, 0) + (x != want)
    for key, g in groups.items():
        print(f"{key}: {g['rows']} rows judged ({g['outside']} outside the routing rule's domain); broken:")
        for n, b in g.items():
            if n not in ("rows", "outside"):
                print(f"  {n}\t{b}")


if __name__ == "__main__":
    if sys.argv[1] == "predict":
        predict()
    elif sys.argv[1] == "check":
        check(sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "measured.tsv"))
