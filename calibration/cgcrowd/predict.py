#!/usr/bin/env python3
"""What the rules in force before this battery say of each launch of layouts.txt, written before the
battery was measured: LDGSTS shared wavefronts (calibration/ldsm rule 4 for every lane reading,
`norule` where a 32-byte source sector is read by three or more kept lanes; calibration/srcpred's
rule for FORM 0; the .ZFILL rule of calibration/cpasync for FORM 1) and the copy's global load
requests and sectors (`global::bypass_copy_sectors`).
Usage: predict.py > predicted.tsv"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ldsm"))
sys.path.insert(0, os.path.join(HERE, "..", "srcpred"))
import ldgsts_rules as L  # noqa: E402
import rules as SP  # noqa: E402

ALL = 0xFFFFFFFF


def layouts(path=os.path.join(HERE, "layouts.txt")):
    out = []
    for ln in open(path):
        f = ln.split()
        form, nc, name = int(f[0]), int(f[1]), f[2]
        v = [int(x) for x in f[3:]]
        assert nc == 1 and len(v) == 96
        out.append((form, name, v[:32], v[32:64], v[64:96]))
    return out


def reading(form, val):
    if form == 2:
        return ALL
    return sum(1 << l for l in range(32) if val[l] != 0)


def kept(dst, lanes):
    """The lanes of `lanes` that are the lowest of `lanes` to write their 16-byte destination."""
    seen, out = set(), 0
    for l in range(32):
        if lanes >> l & 1 and dst[l] not in seen:
            seen.add(dst[l])
            out |= 1 << l
    return out


def crowded(dst, src, lanes):
    """A 32-byte source sector read by three or more kept lanes, unless all read one 16-byte chunk."""
    k = [l for l in range(32) if kept(dst, lanes) >> l & 1]
    if not k or len({src[l] for l in k}) == 1:
        return False
    return any(sum(src[m] // 2 == src[l] // 2 for m in k) > 2 for l in k)


def wavefronts(form, dst, src, val):
    r = reading(form, val)
    if form == 0:
        # SASS predicate P2 (sass.txt): the lanes that read are what Nsight Compute sees
        route = r if r == ALL else r & SP.first_writers(dst, ALL)
        if route and crowded(dst, src, route):
            return "norule"
        return SP.found(dst, src, r, 2, False)
    if form == 2:
        return "norule" if crowded(dst, src, ALL) else SP.rule4(dst, src, ALL)
    # FORM 1, .ZFILL: routing of the reading lanes (repeated destinations dropped among them) plus
    # a per-phase union pass over every lane
    if r and crowded(dst, src, r):
        return "norule"
    return (SP.rule4(dst, src, r) if r else 0) + SP.union_pass(dst, src, ALL, r)


def sectors(dst, src, lanes):
    """global::bypass_copy_sectors (chunk units: dst and src in 16-byte chunks)."""
    k = [l for l in range(32) if kept(dst, lanes) >> l & 1]
    if not k:
        return 0
    if len({src[l] for l in k}) == 1:
        return len({dst[l] // 2 for l in k})
    return sum(len({(dst[l] // 2, src[l] // 8) for l in k if l // 8 == p}) for p in range(4))


def main():
    print("launch\tform\tname\treads\twavefronts\tldgsts_requests\tldgsts_sectors")
    for i, (form, name, dst, src, val) in enumerate(layouts()):
        r = reading(form, val)
        print(f"{i}\t{form}\t{name}\t{r:08x}\t{wavefronts(form, dst, src, val)}\t{int(r != 0)}\t{sectors(dst, src, r)}")


if __name__ == "__main__":
    main()
