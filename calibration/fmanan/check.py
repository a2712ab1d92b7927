#!/usr/bin/env python3
# Checks h200/fmanan.txt (the H200's output of fmanan.cu) against the DFMA NaN rule: a NaN
# operand quieted (sign and payload kept), b over c over a. Columns: thread, the three NaNs' raw
# words (n, m, p as nanOf builds them), then fma(y, n, m), fma(n, m, p), fma(y, m, n),
# fma(-y, n, -m). Prints the rows each rule (and its alternatives) explains.
import sys
def nan_of(w):
    b = 0x7ff0000000000000 | (((w >> 32) & 0x800fffff) << 32) | (w & 0xffffffff)
    return b | 1 if b & 0x000fffffffffffff == 0 else b
q = lambda b: b | 1 << 51
path = sys.argv[1] if len(sys.argv) > 1 else __file__.rsplit('/', 1)[0] + '/h200/fmanan.txt'
tally = {'fma(y,n,m)=m': 0, 'fma(n,m,p)=m (b)': 0, 'fma(n,m,p)=p (c)': 0, 'fma(n,m,p)=n (a)': 0,
         'fma(y,m,n)=n': 0, 'fma(-y,n,-m)=m': 0}
rows = 0
for line in open(path):
    f = line.split()
    n, m, p = (nan_of(int(x, 16)) for x in f[1:4])
    o = [int(x, 16) for x in f[4:8]]
    rows += 1
    tally['fma(y,n,m)=m'] += o[0] == q(m)
    tally['fma(n,m,p)=m (b)'] += o[1] == q(m)
    tally['fma(n,m,p)=p (c)'] += o[1] == q(p)
    tally['fma(n,m,p)=n (a)'] += o[1] == q(n)
    tally['fma(y,m,n)=n'] += o[2] == q(n)
    tally['fma(-y,n,-m)=m'] += o[3] == q(m)
print(rows, 'rows')
for k, v in tally.items():
    print(f'{v:3d}  {k}')
