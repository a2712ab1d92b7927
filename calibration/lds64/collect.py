#!/usr/bin/env python3
"""Joins the device round (run.sh's results) with the probe's inputs into measured.tsv: one row per
pattern: where it was measured (packed: the k-th LDS of a 32-load launch on ncu's source page;
single: a launch of its own, ncu's per-launch metrics), width, lanes (hex), byte offsets, the
attributed wavefronts (source page `L1 Wavefronts Shared` / `sm__sass_l1tex_data_pipe_lsu_
wavefronts_mem_shared_op_ld`) and the L1's own count (`l1tex__data_pipe_lsu_wavefronts_mem_shared_
op_ld`, single launches only; '-' otherwise).
  python3 collect.py RESULTS_DIR > measured.tsv"""
import csv, gzip, io, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
res = sys.argv[1]


def pats(name):
    return [l.split() for l in open(os.path.join(here, name)) if l.strip()]


def opencsv(name):
    p = os.path.join(res, name)
    return gzip.open(p + '.gz', 'rt') if os.path.exists(p + '.gz') else open(p)


out = []
# packed: source page, LDS rows in address order per launch; each page printed twice
packed = pats('patterns.txt')
runs = [tuple(map(int, m.groups())) for m in
        re.finditer(r'launch (\d+) width (\d+) lines (\d+)-(\d+)', open(os.path.join(res, 'probe.stdout')).read())]
blocks, head = [], None
for row in csv.reader(opencsv('probe.sass.csv').read().splitlines()):
    if len(row) >= 2 and row[0] == 'Kernel Name':
        blocks.append([])
    elif row and row[0] == 'Address':
        head = row
    elif head and blocks and len(row) == len(head) and re.search(r'\bLDS', row[1]):
        d = dict(zip(head, row))
        blocks[-1].append((d['Instructions Executed'], d['Predicated-On Thread Instructions Executed'],
                           d['L1 Wavefronts Shared'], d['L1 Wavefronts Shared Ideal']))
if len(blocks) == 2 * len(runs):
    for a, b in zip(blocks[0::2], blocks[1::2]):
        assert a == b
    blocks = blocks[0::2]
assert len(blocks) == len(runs), (len(blocks), len(runs))
for (launch, w, first, last), insts in zip(runs, blocks):
    assert len(insts) == 32, (launch, len(insts))
    for k, line in enumerate(range(first, last + 1)):
        p = packed[line - 1]
        assert int(p[0]) == w
        n, on, wf, ideal = insts[k]
        mask = int(p[1], 16)
        # the k-th load is the line's: its predicated-on threads are the line's lanes
        assert int(on.replace(',', '')) == bin(mask).count('1'), (launch, k, on, p[1])
        out.append(('packed', line, w, p[1], ' '.join(p[2:]), wf.replace(',', ''), '-'))
# single: one launch per line, per-launch metrics
single = pats('patterns_single.txt')
lines = [l for l in opencsv('probe_single.metrics.csv') if l.startswith('"')]
m = {}
for r in csv.DictReader(io.StringIO(''.join(lines))):
    m.setdefault(int(r['ID']), {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
assert len(m) == len(single), (len(m), len(single))
for i, p in enumerate(single):
    d = m[i]
    out.append(('single', i + 1, int(p[0]), p[1], ' '.join(p[2:]),
                d['sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'],
                d['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']))
print('batch\tline\twidth\tmask\taddrs\tattributed\tl1tex')
for r in out:
    print('\t'.join(map(str, r)))
