#!/usr/bin/env python3
"""The candidate rules for 8- and 16-byte shared loads on sm_90 (wavefronts of one warp request).
Phases: 8-byte loads take half-warps, 16-byte quarter-warps; a phase takes as many wavefronts as
the most distinct 128-byte-period words one bank group must deliver. The phases double (8-byte:
the whole warp, 16-byte: half-warps) when every lane pair (2k, 2k+1) agrees or every lane L
agrees with L ^ 2 (two lanes agree unless both are active and read different addresses).
  rule_hw    doubled phases whenever the lanes allow (calibration/bank/: the H100's L1 count)
  rule_attr  doubled phases only when each doubled phase then takes one wavefront
  rule_half  never doubled
  rule_attr_halves  (16-byte candidate) each half-warp doubled on its own when its lanes allow and
             it then takes one wavefront
  python3 rules.py check TABLE...   rows each rule breaks (TABLE: collect.py's output)"""
import sys
from collections import defaultdict


def phase_wf(lanes, a, w):
    g = defaultdict(set)
    for l in lanes:
        k = a[l] // w
        g[k % (128 // w)].add(k)
    return max((len(s) for s in g.values()), default=0)


def shape(w, mask, a):
    act = [l for l in range(32) if mask >> l & 1]
    agree = lambda x, y: not (mask >> x & 1 and mask >> y & 1 and a[x] != a[y])
    pairs = all(agree(2 * k, 2 * k + 1) for k in range(16))
    xor2 = all(agree(l, l ^ 2) for l in range(32))
    base = 128 // w
    small = [phase_wf([l for l in act if l // base == p], a, w) for p in range(32 // base)]
    big = [phase_wf([l for l in act if l // (2 * base) == p], a, w) for p in range(16 // base)]
    return pairs or xor2, small, big


def rule_half(w, mask, a):
    return sum(shape(w, mask, a)[1])


def rule_hw(w, mask, a):
    ok, small, big = shape(w, mask, a)
    return sum(big) if ok else sum(small)


def rule_attr(w, mask, a):
    ok, small, big = shape(w, mask, a)
    return sum(big) if ok and max(big) <= 1 else sum(small)


def rule_attr_halves(w, mask, a):
    ok, small, big = shape(w, mask, a)
    if not ok:
        return sum(small)
    per = len(small) // len(big)
    return sum(b if b <= 1 else sum(small[h * per:(h + 1) * per]) for h, b in enumerate(big))


RULES = {'hw': rule_hw, 'attr': rule_attr, 'half': rule_half, 'attr_halves': rule_attr_halves}

if __name__ == '__main__' and len(sys.argv) > 2 and sys.argv[1] == 'check':
    import csv
    for t in sys.argv[2:]:
        rows = list(csv.DictReader(open(t), delimiter='\t'))
        for col, width in (('attributed', '8'), ('attributed', '16'), ('l1tex', '8'), ('l1tex', '16')):
            bad = {k: 0 for k in RULES}
            n = 0
            for r in rows:
                if r.get(col, '') in ('', '-') or r['width'] != width:
                    continue
                n += 1
                a = [int(x) for x in r['addrs'].split()]
                for k, f in RULES.items():
                    bad[k] += f(int(r['width']), int(r['mask'], 16), a) != int(r[col])
            print(t, col, f'{width}-byte', n, 'rows; broken:', bad)
