#!/usr/bin/env python3
"""The rule found for the wavefronts Nsight Compute attributes to a 16-byte shared load on sm_90
(`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld`, the source page's `L1 Wavefronts
Shared`) and the alternatives the measured rows break; stores beside.
  rule: when the lanes double (calibration/lds64/rules.py: lane pairs or xor-2 partners agree),
  each half-warp takes its doubled phase when that phase is conflict-free, else its two
  quarter-warps; and when lane 31 is active, the first half-warp is doubled only if every one of
  its active lanes L shares its address with an active lane L^1 or L^2.
  python3 fit.py [TABLE...]   default: measured.tsv, measured2.tsv (if present) and
                              ../lds64/measured.tsv; prints rows each candidate breaks"""
import csv
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from candidates import shape, rule_hw, rule_attr, rule_half, rule_attr_halves, rule_l31  # noqa: E402


def paired(m, a, lanes, partners, inactive=False):
    return all(any((inactive or m >> p & 1) and a[p] == a[l] for p in partners(l) if p != l)
               for l in lanes if m >> l & 1)


def halves(m, a, trigger=lambda m: m >> 31 & 1, partners=lambda l: (l ^ 1, l ^ 2), lanes=range(16),
           inactive=False, second=None):
    ok, small, big = shape(16, m, a)
    if not ok:
        return sum(small)
    d0, d1 = big[0] <= 1, big[1] <= 1
    if trigger(m) and not paired(m, a, lanes, partners, inactive):
        d0 = False
    if second and second(m) and not paired(m, a, range(16, 32), partners, inactive):
        d1 = False
    return (big[0] if d0 else small[0] + small[1]) + (big[1] if d1 else small[2] + small[3])


LOADS = {
    'rule': halves,
    'hw (the L1 count: doubled with conflicts)': lambda m, a: rule_hw(16, m, a),
    'attr (doubled only when both halves are conflict-free)': lambda m, a: rule_attr(16, m, a),
    'half (never doubled)': lambda m, a: rule_half(16, m, a),
    'attr_halves (per half, no lane-31 condition)': lambda m, a: rule_attr_halves(16, m, a),
    'l31 (lane 31 active and second half conflicting: first half in quarters)': lambda m, a: rule_l31(16, m, a),
    'pairing condition without lane 31': lambda m, a: halves(m, a, trigger=lambda m: True),
    'condition when lane 30 is active': lambda m, a: halves(m, a, trigger=lambda m: m >> 30 & 1),
    'condition when lane 30 or 31 is active': lambda m, a: halves(m, a, trigger=lambda m: m >> 30 & 3),
    'condition when any lane of the last quarter-warp is active':
        lambda m, a: halves(m, a, trigger=lambda m: m >> 24 & 0xff),
    'condition only when the second half conflicts':
        lambda m, a: halves(m, a, trigger=lambda m: m >> 31 & 1 and shape(16, m, a)[2][1] > 1),
    'partner L^1 only': lambda m, a: halves(m, a, partners=lambda l: (l ^ 1,)),
    'partner L^2 only': lambda m, a: halves(m, a, partners=lambda l: (l ^ 2,)),
    'partner L^1, L^2 or L^3 (any lane of the quad)': lambda m, a: halves(m, a, partners=lambda l: (l ^ 1, l ^ 2, l ^ 3)),
    'partner any lane of the half-warp': lambda m, a: halves(m, a, partners=lambda l: range(l & ~15, (l & ~15) + 16)),
    'an inactive partner holding the address counts': lambda m, a: halves(m, a, inactive=True),
    'pairing over all 32 lanes': lambda m, a: halves(m, a, lanes=range(32)),
    'second half too needs paired lanes when lane 31 is active': lambda m, a: halves(m, a, second=lambda m: m >> 31 & 1),
    'second half needs paired lanes when lane 0 is active': lambda m, a: halves(m, a, second=lambda m: m & 1),
}


def rows(path):
    for r in csv.DictReader(open(path), delimiter='\t'):
        yield r.get('op', 'ld'), int(r['width']), int(r['mask'], 16), [int(x) for x in r['addrs'].split()], r


def main(paths):
    bad = defaultdict(int)
    n = defaultdict(int)
    for p in paths:
        for op, w, m, a, r in rows(p):
            for col in ('attributed', 'l1tex'):
                v = r.get(col, '-')
                if v in ('', '-'):
                    continue
                v = int(v)
                if op == 'ld' and w == 16 and col == 'attributed':
                    n['ld16'] += 1
                    for k, f in LOADS.items():
                        bad[('ld16', k)] += f(m, a) != v
                elif op == 'st':
                    # stores never double in the L1; is their attribution the L1's count?
                    key = f'st{w} {col}'
                    n[key] += 1
                    bad[(key, 'never doubled')] += rule_half(w, m, a) != v
                    bad[(key, 'doubled as loads (L1 rule)')] += rule_hw(w, m, a) != v
                    bad[(key, 'doubled as loads are attributed')] += (halves(m, a) if w == 16 else rule_attr(w, m, a)) != v
                elif op == 'ld' and col == 'l1tex':
                    key = f'ld{w} l1tex'
                    n[key] += 1
                    bad[(key, 'hw (the L1 count)')] += rule_hw(w, m, a) != v
    for key in n:
        print(f'{key}: {n[key]} rows')
        for (k2, name), b in bad.items():
            if k2 == key:
                print(f'  {b:5d} broken  {name}')


if __name__ == '__main__':
    default = [os.path.join(HERE, 'measured.tsv'), os.path.join(HERE, 'measured2.tsv'),
               os.path.join(HERE, '..', 'lds64', 'measured.tsv')]
    main(sys.argv[1:] or [p for p in default if os.path.exists(p)])
