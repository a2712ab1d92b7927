#!/usr/bin/env python3
"""Writes the device round's probe inputs (lines "width mask_hex a0 .. a31", inactive lanes 0):
  patterns.txt         packed 32 a launch, read per SASS instruction from ncu's source page
  patterns_single.txt  one a launch, read from ncu's per-launch metrics (the L1's own count too)
Sources: (1) the H100 bank tables' 8- and 16-byte load rows (calibration/bank/measured*.tsv) on
which the two merge rules of rules.py disagree; (2) requests of thrx's merge-sort launches
(requests.txt: "pc width mask_hex a0 .. a31" per 8-byte load request, as warpscope's emulation
issued them), those on which the rules disagree and controls on which they agree; (3) a few own
shapes. Seeded: the same inputs give the same files.
  python3 gen.py requests.txt"""
import random, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import rule_hw, rule_attr, rule_half

random.seed(2811)
HERE = os.path.dirname(os.path.abspath(__file__))


def bank_rows():
    for t in ['measured.tsv', 'measured_merge.tsv', 'measured_pred_h100.tsv', 'measured_pred_heldout_h100.tsv']:
        for line in open(os.path.join(HERE, '..', 'bank', t)):
            if line.startswith('#') or line.startswith('id'):
                continue
            p = line.rstrip('\n').split('\t')
            if p[2] != 'ld' or int(p[1]) not in (8, 16):
                continue
            mask, a = 0, [0] * 32
            for l, x in enumerate(p[8:40]):
                if x.isdigit():
                    a[l] = int(x)
                    mask |= 1 << l
            yield int(p[1]), mask, a


def thrx_rows(path):
    for line in open(path):
        p = line.split()
        w, mask = int(p[1]), int(p[2], 16)
        a = [int(x) if mask >> l & 1 else 0 for l, x in enumerate(p[3:35])]
        yield w, mask, a


def fmt(w, mask, a):
    return f'{w} {mask:08x} ' + ' '.join(map(str, a))


bank = [r for r in bank_rows() if rule_hw(*r) != rule_attr(*r)]
thrx = list({fmt(*r): r for r in thrx_rows(sys.argv[1])}.values())
t_diff = [r for r in thrx if rule_hw(*r) != rule_attr(*r)]
t_merged = [r for r in thrx if rule_hw(*r) == rule_attr(*r) != rule_half(*r)]
t_plain = [r for r in thrx if rule_hw(*r) == rule_attr(*r) == rule_half(*r)]
random.shuffle(t_diff), random.shuffle(t_merged), random.shuffle(t_plain)
# own shapes: 8-byte, pairs of lanes agreeing (lane 2k+1 off) with k-way conflicts in one bank
# group, and the same with the xor-2 partner off; 16-byte the same per half
own = []
for w in (8, 16):
    for ways in (1, 2, 3, 4, 8):
        for off in ('pair', 'xor2'):
            mask, a = 0, [0] * 32
            for l in range(32):
                if (off == 'pair' and l % 2) or (off == 'xor2' and l & 2):
                    continue
                mask |= 1 << l
                i = l // 2 if off == 'pair' else (l & 1) | (l >> 2) << 1
                a[l] = (i % ways) * 128 + (i // ways) * w if w == 8 else (i % ways) * 128 + (i // ways) * 16
                a[l] %= 16384
            own.append((w, mask, a))
packed = own + bank + t_diff[:700] + t_merged[:120] + t_plain[:60]
single = own + bank[::3] + t_diff[:160] + t_merged[:40] + t_plain[:20]
for name, rows in (('patterns.txt', packed), ('patterns_single.txt', single)):
    # one width per launch: group by width, keeping the order within each
    rows = [r for r in rows if r[0] == 8] + [r for r in rows if r[0] == 16]
    with open(os.path.join(HERE, name), 'w') as f:
        for r in rows:
            f.write(fmt(*r) + '\n')
    print(name, len(rows), file=sys.stderr)
