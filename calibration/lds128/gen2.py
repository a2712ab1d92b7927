#!/usr/bin/env python3
"""Second device round (16-byte loads, packed): separates the rule found in the first round from
the alternatives only a few of its rows broke. With lane 31 active, the first half-warp doubles
only when each of its active lanes shares its address with an active lane L^1 or L^2; the
alternatives let a lane pair with L^3 (any lane of its quad), with an inactive partner whose
address register holds the same address, or with any lane of the half-warp.
Half-warp 0: seven shapes (conflict-free when doubled, both quarter-warps used), each under the
16 lane permutations L -> L ^ c (c < 16, which keep every L^1/L^2/L^3 relation); half-warp 1:
lanes 16 and 31 conflicting (a), lanes 16 and 31 conflict-free (b), lanes 16 and 24 conflicting
with lane 31 off (c).  python3 gen2.py  -> patterns2.txt, predictions2.tsv"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from candidates import shape  # noqa: E402


def addr(row, group):
    return row * 128 + group * 16


A, B, C, D = addr(3, 1), addr(3, 2), addr(3, 3), addr(3, 6)
# shape: (lanes with addresses, inactive lanes' address registers)
SHAPES = {
    'S1-l3': ({0: A, 3: A, 8: B, 11: B}, {}),
    'S2-inactive-mate': ({0: A, 8: B}, {1: A, 2: A, 9: B, 10: B}),
    'S3-l1': ({0: A, 1: A, 8: B, 9: B}, {}),
    'S4-l2': ({0: A, 2: A, 8: B, 10: B}, {}),
    'S5-l8': ({0: A, 8: A}, {}),
    'S6-one-l3': ({0: A, 1: A, 4: C, 7: C, 8: B, 10: B}, {}),
    'S7-one-alone': ({0: A, 1: A, 4: C, 8: B, 10: B}, {}),
}
HALF1 = {
    'a': {16: addr(9, 5), 31: addr(10, 5)},
    'b': {16: addr(9, 4), 31: addr(9, 5)},
    'c': {16: addr(9, 5), 24: addr(10, 5)},
}


def paired(m, a, partners):
    return all(any(m >> p & 1 and a[p] == a[l] for p in partners(l) if p != l)
               for l in range(16) if m >> l & 1)


def predict(m, a, partners=lambda l: (l ^ 1, l ^ 2), trigger=lambda m: m >> 31 & 1, inactive=False):
    ok, small, big = shape(16, m, a)
    if not ok:
        return sum(small)
    d0, d1 = big[0] <= 1, big[1] <= 1
    if trigger(m):
        if inactive:
            d0 = d0 and all(any(a[p] == a[l] for p in (l ^ 1, l ^ 2)) for l in range(16) if m >> l & 1)
        else:
            d0 = d0 and paired(m, a, partners)
    return (big[0] if d0 else small[0] + small[1]) + (big[1] if d1 else small[2] + small[3])


CANDS = {
    'rule': lambda m, a: predict(m, a),
    'l3': lambda m, a: predict(m, a, lambda l: (l ^ 1, l ^ 2, l ^ 3)),
    'inactive_mate': lambda m, a: predict(m, a, inactive=True),
    'half': lambda m, a: predict(m, a, lambda l: range(l & ~15, (l & ~15) + 16)),
    'attr_halves': lambda m, a: predict(m, a, trigger=lambda m: False),
}
rows = []
for name, (lanes, inact) in SHAPES.items():
    for h1, hl in HALF1.items():
        for c in range(16):
            m, a = 0, [0] * 32
            for l, x in list(lanes.items()):
                m |= 1 << (l ^ c)
                a[l ^ c] = x
            for l, x in inact.items():
                a[l ^ c] = x
            for l, x in hl.items():
                m |= 1 << l
                a[l] = x
            rows.append((f'{name}-{h1}', m, a))
with open(os.path.join(HERE, 'patterns2.txt'), 'w') as f, open(os.path.join(HERE, 'predictions2.tsv'), 'w') as p:
    p.write('batch\tline\tfamily\top\twidth\tmask\taddrs\t' + '\t'.join(CANDS) + '\n')
    for k, (fam, m, a) in enumerate(rows):
        f.write(f'ld 16 {m:08x} ' + ' '.join(map(str, a)) + '\n')
        p.write(f'packed\t{k + 1}\t{fam}\tld\t16\t{m:08x}\t{" ".join(map(str, a))}\t'
                + '\t'.join(str(g(m, a)) for g in CANDS.values()) + '\n')
print(len(rows), 'rows', file=sys.stderr)
