#!/usr/bin/env python3
"""Candidate rules for the shared wavefronts Nsight Compute counts for `LDGSTS.E.BYPASS.128 [d], [s], P`
(cp.async.cg 16 bytes with a src-size of 16 or 0, ptxas's source-predicate form), per instruction.

Usage: rules.py predict            -> predicted.tsv on stdout (the candidates written before measuring)
       rules.py check [MEASURED.tsv] -> rows of measured.tsv each rule breaks (the found rule and
                                        the alternatives)
The 16-byte routing rule of the reading lanes is calibration/ldsm's rule 4 (ldgsts_rules.cg_rule)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ldsm"))
import ldgsts_rules as L  # noqa: E402

# pz.cu's copies: copy c reads bit c of its lane's mask through SASS predicate REGS[c]; kernel 0
# passes the predicate as is, kernel 1 negated (`!Pn`) (sass.txt).
REGS = [6, 5, 4, 3, 2, 1, 0, 6]


def layouts(path):
    out = []
    for line in open(path):
        f = line.split()
        v = [int(x) for x in f[1:]]
        out.append((f[0], v[:32], v[32:64], v[64:96]))
    return out


def rule4(dst, src, lanes):
    r = {"a": [dst[l] * 16 if lanes >> l & 1 else None for l in range(32)], "g": [s * 16 for s in src]}
    return L.cg_rule(r) if lanes else 0


def zero_pass(dst, lanes):
    """Zero-filled lanes as a src-size-0 copy (calibration/ldsm rule 3 with no source): per phase of
    8 lanes, the largest number of (lane, word) pairs in one shared bank; phases add."""
    total = 0
    for p in range(4):
        load = [0] * 32
        for l in range(8 * p, 8 * p + 8):
            if lanes >> l & 1:
                for k in range(4):
                    load[(dst[l] * 4 + k) % 32] += 1
        total += max(load)
    return total


def rows128(dst, lanes):
    return len({dst[l] // 8 for l in range(32) if lanes >> l & 1})


def zfill_union(dst, src, reads):
    """The .ZFILL rule's pass (calibration/cpasync zfill): per 8-lane phase, the largest union of a
    word's shared bank and (reading lanes) source bank."""
    total = 0
    for p in range(4):
        d_bank = [0] * 32
        s_bank = [0] * 32
        pairs = {}
        for l in range(8 * p, 8 * p + 8):
            for k in range(4):
                db = (dst[l] * 4 + k) % 32
                d_bank[db] += 1
                if reads >> l & 1:
                    sb = (src[l] * 4 + k) % 32
                    s_bank[sb] += 1
                    pairs[(db, sb)] = pairs.get((db, sb), 0) + 1
        best = max(d_bank)
        for (db, sb), both in pairs.items():
            best = max(best, d_bank[db] + s_bank[sb] - both)
        total += best
    return total


ALL = 0xFFFFFFFF


def seen_reads(reads, reg, neg):
    """The lanes Nsight Compute's instrumentation takes as reading: P0 reads as false."""
    if reg == 0:
        return ALL if neg else 0
    return reads


def candidates(dst, src, reads, reg, neg):
    seen = seen_reads(reads, reg, neg)
    zf = ALL & ~seen
    zf_true = ALL & ~reads
    return {
        # the rule: P0 read as false; routing of the reading lanes + a src-size-0 pass of the others
        "rule": rule4(dst, src, seen) + (zero_pass(dst, zf) if zf else 0),
        # the same without the P0 reading
        "no_p0": rule4(dst, src, reads) + (zero_pass(dst, zf_true) if zf_true else 0),
        # zero-filled lanes: one wavefront per 128-byte shared row they write
        "zf_rows": rule4(dst, src, seen) + rows128(dst, zf),
        # the zero-fill pass over every lane's destination when any lane zero-fills
        "pass_all": rule4(dst, src, seen) + (zero_pass(dst, ALL) if zf else 0),
        # the predicate ignored: every lane reads (the earlier plain rule)
        "plain": rule4(dst, src, ALL),
        # the .ZFILL rule (routing of the reading lanes + a union pass over every lane)
        "zfill": rule4(dst, src, seen) + zfill_union(dst, src, seen),
    }


NAMES = ["rule", "no_p0", "zf_rows", "pass_all", "plain", "zfill"]


def first_writers(dst, lanes):
    """The lanes that are the lowest to write their 16-byte destination chunk."""
    seen, out = set(), 0
    for l in range(32):
        if lanes >> l & 1 and dst[l] not in seen:
            seen.add(dst[l])
            out |= 1 << l
    return out


def union_pass(dst, src, lanes, reads):
    """Per 8-lane phase over `lanes`: the largest union of a word's shared bank and (lanes of
    `reads`) its source bank."""
    total = 0
    for p in range(4):
        d_bank, s_bank, pairs, any_lane = [0] * 32, [0] * 32, {}, False
        for l in range(8 * p, 8 * p + 8):
            if not lanes >> l & 1:
                continue
            any_lane = True
            for k in range(4):
                db = (dst[l] * 4 + k) % 32
                d_bank[db] += 1
                if reads >> l & 1:
                    sb = (src[l] * 4 + k) % 32
                    s_bank[sb] += 1
                    pairs[(db, sb)] = pairs.get((db, sb), 0) + 1
        if any_lane:
            total += max([max(d_bank)] + [d_bank[a] + s_bank[b] - n for (a, b), n in pairs.items()])
    return total


def found(dst, src, reads, reg, neg, real_lanes=False, dedupe=True, pass_when_all_read=False):
    """The rule found on measured.tsv (and its variants): Nsight Compute takes P0 as false; when
    every lane reads, the routing rule; otherwise the routing of the reading lanes that first write
    their destination plus a union pass over every lane (the .ZFILL form's count)."""
    seen = reads if real_lanes else seen_reads(reads, reg, neg)
    if seen == ALL and not pass_when_all_read:
        return rule4(dst, src, ALL)
    r = seen & first_writers(dst, ALL) if dedupe else seen
    return rule4(dst, src, r) + union_pass(dst, src, ALL, r)


FOUND = {
    "found": {},
    "found_real_lanes": {"real_lanes": True},
    "found_no_dedupe": {"dedupe": False},
    "found_pass_when_all_read": {"pass_when_all_read": True},
}


def check(path):
    import csv
    lay = layouts(os.path.join(os.path.dirname(os.path.abspath(path)), "layouts.txt"))
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    bad = {n: 0 for n in list(FOUND) + NAMES}
    for m in rows:
        name, dst, src, _ = lay[int(m["launch"]) // 2]
        reads = int(m["reads"], 16)
        pred = m["predicate"]
        reg = 7 if pred.lstrip("!") == "PT" else int(pred.lstrip("!")[1])
        neg = pred.startswith("!")
        want = int(m["wavefronts"])
        for n, kw in FOUND.items():
            bad[n] += found(dst, src, reads, reg, neg, **kw) != want
        for n, v in candidates(dst, src, reads, reg, neg).items():
            bad[n] += v != want
    print(f"rows broken of {len(rows)}:")
    for n, b in bad.items():
        print(f"  {n}\t{b}")


def predict(path):
    print("launch\tname\tcopy\treg\tneg\treads\t" + "\t".join(NAMES))
    for i, (name, dst, src, masks) in enumerate(layouts(path)):
        for neg in (0, 1):
            for c in range(8):
                reads = sum(1 << l for l in range(32) if masks[l] >> c & 1)
                v = candidates(dst, src, reads, REGS[c], neg)
                print(f"{2 * i + neg}\t{name}\t{c}\tP{REGS[c]}\t{neg}\t{reads:08x}\t" + "\t".join(str(v[n]) for n in NAMES))


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "measured.tsv"))
    elif sys.argv[1] == "predict":
        predict(sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "layouts.txt"))
