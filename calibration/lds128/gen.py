#!/usr/bin/env python3
"""Writes this folder's device-round inputs (lines "op width mask_hex a0 .. a31": op ld or st,
byte offsets of all 32 lanes, inactive lanes' too) and every candidate's prediction:
  patterns.txt         packed 32 a launch, read per SASS instruction from ncu's source page
  patterns_single.txt  one a launch, read from ncu's per-launch metrics (the L1's own count too)
  predictions.tsv      per packed/single line: family, op, width, mask, offsets, each rule of
                       candidates.py (written before the round)
Families (16-byte loads unless named):
  A-<variant>  each distinct measured row of calibration/lds64/measured.tsv whose half-warps double
               with one conflicting and one conflict-free doubled phase ("FC": first free, second
               conflicting, 73 rows; "CF" the other way), as measured and transformed: rows shifted,
               bank groups permuted, rows relabelled, inactive lanes' address registers changed,
               lanes permuted by xor (halves, quarters, within quarters, mirror)
  B1-B5        minimal shapes: one lane in each quarter (q0 lane p, q1 lane r conflict-free; q2 lane i
               and q3 lane j in one bank group, two rows) over lane positions; within-quarter
               conflicts; one extra lane; the mirror (halves swapped); a full first half
  C-<class>    random pair- or xor-2-uniform requests, kept by class (FC, CF, CC, FF)
  S-*          stores (STS.128, STS.64) of the same shapes and 8-byte rows of calibration/lds64
  L8           8-byte loads of calibration/lds64 (controls)
Seeded: the same inputs give the same files.  python3 gen.py"""
import csv
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from candidates import RULES, shape  # noqa: E402

rng = random.Random(2812)
ROWS_MAX = 380  # 48 KiB of shared memory: rows of 128 bytes


def addr(row, group):
    return row * 128 + group * 16


def cls(w, m, a):
    ok, small, big = shape(w, m, a)
    if not ok:
        return 'ND'
    if w != 16:
        return 'D'
    return ('F' if big[0] <= 1 else 'C') + ('F' if big[1] <= 1 else 'C')


def old_rows():
    out = {}
    for r in csv.DictReader(open(os.path.join(HERE, '..', 'lds64', 'measured.tsv')), delimiter='\t'):
        m, a = int(r['mask'], 16), [int(x) for x in r['addrs'].split()]
        out.setdefault((r['width'], m, tuple(a)), (int(r['width']), m, a))
    return list(out.values())


def permute(m, a, f):
    m2, a2 = 0, [0] * 32
    for l in range(32):
        m2 |= (m >> l & 1) << f(l)
        a2[f(l)] = a[l]
    return m2, a2


def variants(m, a):
    act = [l for l in range(32) if m >> l & 1]
    rows = sorted({a[l] // 128 for l in act})
    yield 'ident', m, a
    for k in (7, 40):
        if max(rows) + k < ROWS_MAX:
            yield f'row+{k}', m, [x + 128 * k if m >> l & 1 else 0 for l, x in enumerate(a)]
    for c in (1, 4, 7):
        yield f'gxor{c}', m, [addr(x // 128, (x // 16 % 8) ^ c) if m >> l & 1 else 0 for l, x in enumerate(a)]
    new = rng.sample(range(60, 300), len(rows))
    relabel = dict(zip(rows, new))
    yield 'rowperm', m, [addr(relabel[x // 128], x // 16 % 8) if m >> l & 1 else 0 for l, x in enumerate(a)]
    yield 'inact_rand', m, [x if m >> l & 1 else addr(rng.randrange(300, 370), rng.randrange(8)) for l, x in enumerate(a)]
    yield 'inact_mate', m, [x if m >> l & 1 else (a[l ^ 1] if m >> (l ^ 1) & 1 else a[l ^ 2] if m >> (l ^ 2) & 1 else 0)
                            for l, x in enumerate(a)]
    for name, f in (('x16', lambda l: l ^ 16), ('q23', lambda l: l ^ 8 if l >= 16 else l),
                    ('q01', lambda l: l ^ 8 if l < 16 else l), ('x7', lambda l: l ^ 7), ('x1', lambda l: l ^ 1),
                    ('x2', lambda l: l ^ 2), ('x4', lambda l: l ^ 4), ('x31', lambda l: l ^ 31)):
        yield name, *permute(m, a, f)


def one_per_quarter(p, r, i, j, rows=(3, 4)):
    m = 1 << p | 1 << r | 1 << i | 1 << j
    a = [0] * 32
    a[p], a[r] = addr(2, 1), addr(2, 3)
    a[i], a[j] = addr(rows[0], 5), addr(rows[1], 5)
    return m, a


def random_request(rng):
    mode = rng.choice(['pairs', 'xor2'])
    dens = rng.choice([0.25, 0.5, 0.75, 1.0])
    nrows = rng.choice([2, 3, 4, 8, 30])
    row0 = rng.randrange(1, 300)
    m, a = 0, [0] * 32
    for slot in range(16):
        lanes = [2 * slot, 2 * slot + 1] if mode == 'pairs' else [
            (slot // 2) * 4 + (slot % 2), (slot // 2) * 4 + (slot % 2) + 2]
        x = addr(row0 + rng.randrange(nrows), rng.randrange(8))
        for l in lanes:
            if rng.random() < dens:
                m |= 1 << l
                a[l] = x
    return m, a


def line(op, w, m, a):
    return f'{op} {w} {m:08x} ' + ' '.join(map(str, a))


packed, single = [], []  # (family, op, width, mask, addrs)
old = old_rows()
base = {'FC': [], 'CF': []}
for w, m, a in old:
    if w == 16 and cls(w, m, a) in base:
        base[cls(w, m, a)].append((m, a))
for c in ('FC', 'CF'):
    for m, a in base[c]:
        for v, m2, a2 in variants(m, a):
            packed.append((f'A{c}-{v}', 'ld', 16, m2, a2))
# B1: lane positions
B = []
for i in range(16, 24):
    for j in range(24, 32):
        B.append(('B1-p0r8', 0, 8, i, j, (3, 4)))
        B.append(('B1-p7r15', 7, 15, i, j, (3, 4)))
        B.append(('B1-p0r8-rows43', 0, 8, i, j, (4, 3)))
for p in range(8):
    for r in range(8, 16):
        B.append(('B1-i16j24', p, r, 16, 24, (3, 4)))
        B.append(('B1-i23j31', p, r, 23, 31, (3, 4)))
for fam, p, r, i, j, rows in B:
    packed.append((fam, 'ld', 16, *one_per_quarter(p, r, i, j, rows)))
# B2: conflict inside q3 (j1, j2), q2 lane 16 elsewhere
for j1 in range(24, 32):
    for j2 in range(j1 + 1, 32):
        m, a = one_per_quarter(0, 8, 16, j1)
        a[16] = addr(3, 6)
        a[j1], a[j2] = addr(3, 5), addr(4, 5)
        packed.append(('B2-q3', 'ld', 16, m | 1 << j2, a))
# B3: one extra lane (row 5, group 7) beside p0 r8 i16 j24, and beside p0 r8 i16 j31
for jj in (24, 31):
    for x in range(32):
        if x in (0, 8, 16, jj):
            continue
        m, a = one_per_quarter(0, 8, 16, jj)
        a[x] = addr(5, 7)
        packed.append((f'B3-j{jj}-x', 'ld', 16, m | 1 << x, a))
# B4: the mirror (halves swapped) of B1's p0r8 and i23j31 sets
for fam, p, r, i, j, rows in B:
    if fam in ('B1-p0r8', 'B1-i23j31'):
        packed.append(('B4-' + fam[3:], 'ld', 16, *permute(*one_per_quarter(p, r, i, j, rows), lambda l: l ^ 16)))
# B5: a full first half (16 lanes, pairs agree, 8 words, conflict-free doubled) and B1's pair in half 1
for i in range(16, 24):
    for j in range(24, 32):
        m, a = one_per_quarter(0, 8, i, j)
        m |= 0xffff
        for l in range(16):
            a[l] = addr(2, l // 2)
        packed.append(('B5', 'ld', 16, m, a))
# C: random requests by class
want = {'FC': 700, 'CF': 200, 'CC': 60, 'FF': 40}
got = {k: 0 for k in want}
tries = 0
while any(got[k] < want[k] for k in want) and tries < 400000:
    tries += 1
    m, a = random_request(rng)
    c = cls(16, m, a)
    if c in got and got[c] < want[c] and m:
        got[c] += 1
        packed.append((f'C-{c}', 'ld', 16, m, a))
# stores: 16-byte shapes (A ident rows, B1 p0r8, B3, some C) and 8-byte rows of lds64
st16 = [p for p in packed if p[0] in ('AFC-ident', 'ACF-ident', 'B1-p0r8', 'B3-j31-x')]
st16 += [p for p in packed if p[0].startswith('C-')][::8]
old8 = [(m, a) for w, m, a in old if w == 8]
rng.shuffle(old8)
st8 = [('S8-lds64', 'st', 8, m, a) for m, a in old8[:220]]
packed += [('S16-' + p[0], 'st', 16, p[3], p[4]) for p in st16]
packed += st8
packed += [('L8-lds64', 'ld', 8, m, a) for m, a in old8[:96]]
# singles: the L1's own counts
single += [p for p in packed if p[0] == 'B1-p0r8'][::2]
single += [p for p in packed if p[0] == 'C-FC'][:48]
single += [p for p in packed if p[0].startswith('S16-')][::3]
single += [p for p in packed if p[0] == 'S8-lds64'][:100]

order = {('ld', 16): 0, ('st', 16): 1, ('st', 8): 2, ('ld', 8): 3}
# within the 16-byte loads, the first-free-second-conflicting families first (the first ncu pass)
first = ('AFC', 'B1', 'B2', 'B3', 'B5', 'C-FC')
packed = [p for p in packed if p[0].startswith(first)] + [p for p in packed if not p[0].startswith(first)]
with open(os.path.join(HERE, 'predictions.tsv'), 'w') as pred:
    pred.write('batch\tline\tfamily\top\twidth\tmask\taddrs\tclass\t' + '\t'.join(RULES) + '\n')
    for name, rows in (('packed', packed), ('single', single)):
        rows = sorted(rows, key=lambda r: order[(r[1], r[2])])
        with open(os.path.join(HERE, f'patterns{"" if name == "packed" else "_single"}.txt'), 'w') as f:
            for k, (fam, op, w, m, a) in enumerate(rows):
                f.write(line(op, w, m, a) + '\n')
                preds = [str(f(w, m, a)) for f in RULES.values()]
                pred.write(f'{name}\t{k + 1}\t{fam}\t{op}\t{w}\t{m:08x}\t{" ".join(map(str, a))}\t{cls(w, m, a)}\t'
                           + '\t'.join(preds) + '\n')
        print(name, len(rows), file=sys.stderr)
print('classes', got, file=sys.stderr)
