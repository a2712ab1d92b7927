#!/usr/bin/env python3
"""Joins the device round (run.sh's results) with the probe's inputs into measured.tsv: one row per
pattern: where it was measured (packed: the k-th LDS/STS of a 32-access launch on ncu's source
page; single: a launch of its own, ncu's per-launch metrics), gen.py's family, op, width, lanes
(hex), byte offsets (inactive lanes' address registers too), the attributed wavefronts (source
page `L1 Wavefronts Shared`; single: `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}`)
and the L1's own count (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}`, single launches
only; '-' otherwise).
  python3 collect.py RESULTS_DIR > measured.tsv
  python3 collect.py RESULTS_DIR2 2 > measured2.tsv   (the second round, gen2.py/run2.sh: packed only)"""
import csv
import gzip
import io
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
res = sys.argv[1]
rnd = sys.argv[2] if len(sys.argv) > 2 else ''


def pats(name):
    return [l.split() for l in open(os.path.join(here, name)) if l.strip()]


def opencsv(name):
    p = os.path.join(res, name)
    return gzip.open(p + '.gz', 'rt') if os.path.exists(p + '.gz') else open(p)


fam = {}
for r in csv.DictReader(open(os.path.join(here, f'predictions{rnd}.tsv')), delimiter='\t'):
    fam[(r['batch'], int(r['line']))] = r['family']
out = []
packed = pats(f'patterns{rnd}.txt')
runs = [(int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))) for m in
        re.finditer(r'launch (\d+) op (\w+) width (\d+) lines (\d+)-(\d+)', open(os.path.join(res, f'probe{rnd}.stdout')).read())]
blocks = []
for part in (('probe.sass1.csv', 'probe.sass2.csv') if not rnd else (f'probe{rnd}.sass.csv',)):
    if not os.path.exists(os.path.join(res, part)) and not os.path.exists(os.path.join(res, part + '.gz')):
        continue
    got, head = [], None
    for row in csv.reader(opencsv(part).read().splitlines()):
        if len(row) >= 2 and row[0] == 'Kernel Name':
            got.append([])
        elif row and row[0] == 'Address':
            head = row
        elif head and got and len(row) == len(head) and re.search(r'\b(LDS|STS)', row[1]):
            d = dict(zip(head, row))
            got[-1].append((re.search(r'\b(LDS|STS)', row[1]).group(1), d['Instructions Executed'],
                            d['Predicated-On Thread Instructions Executed'], d['L1 Wavefronts Shared']))
    # ncu prints each launch's page twice
    assert len(got) % 2 == 0 and all(a == b for a, b in zip(got[0::2], got[1::2])), part
    blocks += got[0::2]
if len(blocks) < len(runs):
    print(f'collect.py: source pages for {len(blocks)} of {len(runs)} packed launches', file=sys.stderr)
runs = runs[:len(blocks)]
for (launch, op, w, first, last), insts in zip(runs, blocks):
    insts = [i for i in insts if i[0] == ('LDS' if op == 'ld' else 'STS')]
    assert len(insts) == 32, (launch, len(insts))
    for k, line in enumerate(range(first, last + 1)):
        p = packed[line - 1]
        assert p[0] == op and int(p[1]) == w
        _, n, on, wf = insts[k]
        mask = int(p[2], 16)
        # the k-th access is the line's: its predicated-on threads are the line's lanes
        assert int(on.replace(',', '')) == bin(mask).count('1'), (launch, k, on, p[2])
        out.append(('packed', line, fam[('packed', line)], op, w, p[2], ' '.join(p[3:]), wf.replace(',', ''), '-'))
single = pats('patterns_single.txt')
if not rnd and (os.path.exists(os.path.join(res, 'probe_single.metrics.csv'))
               or os.path.exists(os.path.join(res, 'probe_single.metrics.csv.gz'))):
    lines = [l for l in opencsv('probe_single.metrics.csv') if l.startswith('"')]
    m = {}
    for r in csv.DictReader(io.StringIO(''.join(lines))):
        m.setdefault(int(r['ID']), {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
    assert len(m) == len(single), (len(m), len(single))
    for i, p in enumerate(single):
        d, op = m[i], p[0]
        out.append(('single', i + 1, fam[('single', i + 1)], op, int(p[1]), p[2], ' '.join(p[3:]),
                    d[f'sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum'],
                    d[f'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum']))
print('batch\tline\tfamily\top\twidth\tmask\taddrs\tattributed\tl1tex')
for r in out:
    print('\t'.join(map(str, r)))
