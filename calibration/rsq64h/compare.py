#!/usr/bin/env python3
"""Compares the H200's MUFU.RSQ64H table (rsq64h.delta: 2^21 u32 differences, [1, 2) then [2, 4))
with 1/sqrt rounded to nearest and truncated to 20 fraction bits; prints the counts.
Usage: compare.py rsq64h.delta   (decompressed)"""
import math, struct, sys, collections

raw = open(sys.argv[1], 'rb').read()
n = len(raw) // 4
d = struct.unpack('<%dI' % n, raw)
r = 0
stats = collections.Counter()
first = {}
for k in range(n):
    r = (r + d[k]) & 0xffffffff
    m = (1 << 20) + (k & 0xfffff)
    mm = m if k < (1 << 20) else 2 * m  # x = mm / 2^20
    # q = 2^21 / sqrt(x) = 2^31 / sqrt(mm): the result in units of 2^-21
    a = (1 << 62) // mm
    fl = math.isqrt(a)
    exact = fl * fl * mm == (1 << 62)
    # round to nearest: fl + 1 when (fl + 1/2)^2 < 2^62 / mm
    rn = fl + 1 if (2 * fl + 1) ** 2 * mm < (1 << 64) else fl
    e = (r >> 20) & 0x7ff
    got = None
    if e == 1022:
        got = (r & 0xfffff) | 1 << 20
    elif e == 1023:
        got = ((r & 0xfffff) | 1 << 20) << 1  # 1.0 and above
    for name, want in (('nearest', rn), ('truncated', fl)):
        diff = None if got is None else got - want
        stats[(name, diff)] += 1
        first.setdefault((name, diff), k)
for key in sorted(stats, key=str):
    print(key, stats[key], 'first k =', hex(first[key]))
