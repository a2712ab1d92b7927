"""Paired figures from ab.py's table: per program, the new/base ratio of the launch seconds within
each round (same CPU, back to back), their median and geometric mean with a 95 % interval, the
rounds where new was faster (two-sided sign test), and the same binary's own max/min spread.
usage: python3 pairs.py ab.txt"""
import math, re, statistics as st, sys
from math import comb

d = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 9 and f[0].isdigit() and f[2] in ("base", "new"):
        d[(int(f[0]), f[3], f[2])] = float(f[4])
rounds = sorted({k[0] for k in d})
n = len(rounds)
print("program   rounds  median new/base  geo-mean (95 % interval)  new faster  sign p   base max/min  new max/min")
for p in ("reduce", "transpose", "nbody"):
    b = [d[(r, p, "base")] for r in rounds]
    w = [d[(r, p, "new")] for r in rounds]
    lr = [math.log(y / x) for x, y in zip(b, w)]
    m, se = st.mean(lr), st.stdev(lr) / math.sqrt(n)
    k = sum(y < x for x, y in zip(b, w))
    tail = sum(comb(n, i) for i in range(max(k, n - k), n + 1)) / 2 ** n
    print(f"{p:<9} {n:6d} {st.median(y / x for x, y in zip(b, w)):16.3f} "
          f"{math.exp(m):8.3f} ({math.exp(m - 1.96 * se):.3f}-{math.exp(m + 1.96 * se):.3f}) "
          f"{k:7d}/{n} {min(1.0, 2 * tail):8.4f} {max(b) / min(b):13.2f} {max(w) / min(w):12.2f}")
