#!/usr/bin/env python3
"""Per program and counter group, how `warpscope run`'s export stands against ncu's CSV of the same
program: launches labelled exact and equal / labelled estimates (how many of them equal) / labelled
exact and different (a defect). Groups: branch (targets, divergent targets), shared (instructions
and attributed wavefronts), global (requests, sectors), and registers with theoretical occupancy.
  python3 groups.py H200DIR EXPORTDIR PROGRAM...   (H200DIR/P.ncu.csv against EXPORTDIR/P.json)"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import load_ncu, S, SA, B, G, R

FLAG = {'branch': 'warpscope__branch_counters_exact', 'shared': 'warpscope__shared_counters_exact',
        'global': 'warpscope__global_counters_exact'}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    hdir, edir, progs = sys.argv[1], sys.argv[2], sys.argv[3:]
    total = {}
    print('| program | launches | branch | shared | global | registers, occupancy |')
    print('|---|---|---|---|---|---|')
    for p in progs:
        hw = load_ncu(os.path.join(hdir, p + '.ncu.csv'))
        launches = json.load(open(os.path.join(edir, p + '.json')))['launches']
        row = {g: [0, 0, 0, 0] for g in ('branch', 'shared', 'global')}
        regs = 0
        n = 0
        for i, l in enumerate(launches):
            h = hw.get(i)
            if h is None:
                continue
            n += 1
            m = l['metrics']
            keys = {'branch': B, 'shared': SA if all(k in h for k in SA) else S, 'global': G}
            for g, ks in keys.items():
                equal = all(m.get(k) == h.get(k) for k in ks)
                exact = m.get(FLAG[g], 1) == 1
                if exact and equal:
                    row[g][0] += 1
                elif not exact:
                    row[g][1] += 1
                    row[g][2] += equal
                else:
                    row[g][3] += 1
                    print(f'  EXACT AND WRONG {p}#{i} {h["name"][:40]} {g}: ' +
                          ', '.join(f'{k.split("__")[1]} {m.get(k)} vs {h.get(k)}' for k in ks if m.get(k) != h.get(k)),
                          file=sys.stderr)
            # ncu prints the occupancy with two decimals (98.44 for 98.4375)
            regs += all(m.get(k) == h.get(k) or abs((m.get(k) or 0) - h.get(k)) < 0.005 for k in R if k in h)
        if len(launches) != len(hw):
            print(f'  {p}: warpscope {len(launches)} launches, ncu {len(hw)}', file=sys.stderr)
        cell = lambda c: f'{c[0]} / {c[1]} ({c[2]} equal) / {c[3]}'
        print(f'| {p} | {n} | {cell(row["branch"])} | {cell(row["shared"])} | {cell(row["global"])} | {regs} |')
        for g in row:
            total.setdefault(g, [0, 0, 0, 0])
            total[g] = [a + b for a, b in zip(total[g], row[g])]
        total['n'] = total.get('n', 0) + n
        total['r'] = total.get('r', 0) + regs
    print(f'| all | {total["n"]} | {cell(total["branch"])} | {cell(total["shared"])} | {cell(total["global"])} | {total["r"]} |')


if __name__ == '__main__':
    main()
