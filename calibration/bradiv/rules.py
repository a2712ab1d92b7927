#!/usr/bin/env python3
"""Which rule decides whether the H200 takes a `BRA.DIV` convergence check: every check the
source pages of h200/bradiv.sass.csv.gz and ../run/bench12/h200/cgtiles.sass.csv.gz executed,
with its lanes (threads executing it), the lanes whose guard held (predicated-on threads), its
mask operand and whether its slow path ran; then, per candidate rule, the checks it gets wrong.
Every warp of a launch executes a check alike here (one row per check). The mask operand is the
union of the member masks (`REDUX.OR`) or a constant (`UMOV UR, 0xffffffff`), as the rows say.
    python3 calibration/bradiv/rules.py"""
import csv, gzip, os, re

HERE = os.path.dirname(os.path.abspath(__file__))


def pages(path):
    kernel, rows = None, []
    for r in csv.reader(gzip.open(path, 'rt')):
        if len(r) >= 2 and r[0] == 'Kernel Name':
            kernel = r[1]
            rows.append((kernel, []))
            continue
        if kernel is None or len(r) < 12 or not r[0].startswith('0x'):
            continue
        num = lambda x: float(x) if x not in ('', '-') else 0.0
        rows[-1][1].append((int(r[0], 16), r[1].strip(), num(r[5]), num(r[8]), num(r[9])))
    seen, out = set(), []
    for k, ins in rows:  # ncu prints each kernel's page twice
        if k not in seen:
            seen.add(k)
            out.append((k, ins))
    return out


def checks(path, masks):
    out = []
    for kernel, ins in pages(path):
        at = {a: (e, t) for a, _, e, t, _ in ins}
        for a, text, e, thr, pred in ins:
            m = re.match(r'(@!?U?P\d+\s+)?BRA\.DIV (\w+), (0x[0-9a-f]+)', text)
            if not m or not e:
                continue
            taken = at.get(int(m.group(3), 16), (0, 0))[0] > 0
            short = re.sub(r'\(.*', '', kernel.replace('(int)', '')).replace('void ', '').replace(' ', '')
            mask = masks(short, thr)
            out.append((short, text.split(',')[0], int(e), thr, pred, mask, taken))
    return out


def union_of_active(kernel, thr):
    # every kernel here passes masks whose union is the lanes running the collectives
    return int(thr)


def constant_full(kernel, thr):
    return 32


rows = checks(os.path.join(HERE, 'h200/bradiv.sass.csv.gz'), union_of_active)
cg = checks(os.path.join(HERE, '../run/bench12/h200/cgtiles.sass.csv.gz'),
            lambda k, thr: 32 if k.startswith('gridScan') else int(thr))
rows += cg
rules = {
    'adopted: taken by the group unless the lanes whose guard holds are the mask\'s lanes':
        lambda thr, pred, mask, guarded: not (pred == mask),
    'old flow: taken only when a lane of the mask is not in the group':
        lambda thr, pred, mask, guarded: mask > thr,
    'taken when the guard does not hold in every lane of the group':
        lambda thr, pred, mask, guarded: pred != thr,
    'taken whenever the check guards a collective with a partial member mask':
        lambda thr, pred, mask, guarded: guarded,
}
print('kernel | check | executions | lanes | guard holds | mask lanes | slow path ran')
for k, text, e, thr, pred, mask, taken in rows:
    print(f'{k} | {text} | {e} | {thr:g} | {pred:g} | {mask} | {"yes" if taken else "no"}')
print()
for name, rule in rules.items():
    wrong = [r for r in rows
             if rule(r[3], r[4], r[5], not r[0].startswith('gridScan')) != r[6]]
    print(f'{name}: wrong on {len(wrong)} of {len(rows)} checks'
          + (': ' + ', '.join(f'{r[0]} {r[1]}' for r in wrong[:12]) if wrong else ''))
