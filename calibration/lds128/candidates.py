#!/usr/bin/env python3
"""Candidate rules for the wavefronts Nsight Compute attributes to a 16-byte shared load on sm_90
(`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld`, the source page's `L1 Wavefronts
Shared`), written down before the device round of this folder (README.md). Shapes and the first
four rules are calibration/lds64/rules.py's:
  hw           doubled phases (half-warps) whenever the lanes allow (the L1's own count)
  attr         doubled phases only when every doubled phase is then conflict-free, else quarters
  half         never doubled (quarter-warps)
  attr_halves  each half-warp doubled on its own when the lanes allow and it is then conflict-free
  l31          attr_halves, but the first half-warp is counted in quarters when the second one's
               doubled phase conflicts and lane 31 is active
Stores (8 and 16 bytes) never double in the L1 (calibration/bank/): `half` is their L1 count.
  python3 candidates.py check TABLE   rows each rule breaks, per kind, width and column"""
import os
import sys
from collections import defaultdict

import importlib.util

_spec = importlib.util.spec_from_file_location(
    'lds64_rules', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lds64', 'rules.py'))
_lds64 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_lds64)
phase_wf, shape = _lds64.phase_wf, _lds64.shape
rule_hw, rule_attr, rule_half, rule_attr_halves = _lds64.rule_hw, _lds64.rule_attr, _lds64.rule_half, _lds64.rule_attr_halves


def rule_l31(w, mask, a):
    ok, small, big = shape(w, mask, a)
    if w != 16 or not ok:
        return rule_attr_halves(w, mask, a)
    first = big[0] if big[0] <= 1 else small[0] + small[1]
    second = big[1] if big[1] <= 1 else small[2] + small[3]
    if big[1] > 1 and mask >> 31 & 1:
        first = small[0] + small[1]
    return first + second


RULES = {'hw': rule_hw, 'attr': rule_attr, 'half': rule_half, 'attr_halves': rule_attr_halves, 'l31': rule_l31}


def check(path):
    import csv
    rows = list(csv.DictReader(open(path), delimiter='\t'))
    groups = defaultdict(list)
    for r in rows:
        for col in ('attributed', 'l1tex'):
            if r.get(col, '-') not in ('', '-'):
                groups[(r['op'], r['width'], col)].append(r)
    for (op, width, col), rs in sorted(groups.items()):
        bad = {}
        for k, f in RULES.items():
            bad[k] = sum(f(int(width), int(r['mask'], 16), [int(x) for x in r['addrs'].split()]) != int(r[col])
                         for r in rs)
        print(path, op, width, col, len(rs), 'rows; broken:', bad)


if __name__ == '__main__' and len(sys.argv) > 2 and sys.argv[1] == 'check':
    for t in sys.argv[2:]:
        check(t)
