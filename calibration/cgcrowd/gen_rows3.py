#!/usr/bin/env python3
"""Third battery of cw.cu (plain form, one copy per launch): fresh crowded layouts, to check the
per-class rounds rule (README, question 1) on copies it was not fitted on.
As gen_rows.py, the configuration's lanes 0..n-1 copy into shared rows 0-1 from source lines 0-1;
every other lane l copies chunk 320 + l to chunk 64 + l (lines 40-43 into rows 8-11; rule 4 counts it).
- x: one source sector moved whole (its two halves by two lanes into one destination sector,
  straight or swapped) while 1-3 more lanes read halves of that sector into other chunks of the
  row, plus 0-3 pieces from other sectors; lanes in random order (the crowded whole move).
- r8: lanes 0-7 into the eight chunks of row 0 (a random permutation) from random chunks of source
  line 0 (as gen_rows.py, own seed); r8l2: the same from lines 0 and 1.
- r12: lanes 0-11 into random distinct chunks of rows 0-1 from random chunks of lines 0-1.
- old: 24 layouts of layouts2.txt again (every 30th), a repeat check.
Usage: gen_rows3.py > layouts3.txt"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def line(name, dst, src, n):
    dst, src = dst[:n] + [64 + l for l in range(n, 32)], src[:n] + [320 + l for l in range(n, 32)]
    return f"2 1 {name} " + " ".join(str(x) for x in dst + src + [1] * 32)


def main():
    R = random.Random(63063)
    out = []
    for i in range(300):
        a, x, swap = R.randrange(4), R.randrange(4), R.randrange(2)
        pieces = [(2 * a, 2 * x + swap), (2 * a + 1, 2 * x + 1 - swap)]
        free = [c for c in range(8) if c // 2 != x]
        R.shuffle(free)
        for _ in range(R.randint(1, 3)):
            pieces.append((2 * a + R.randrange(2), free.pop()))
        for _ in range(R.randint(0, 3)):
            pieces.append((R.choice([c for c in range(8) if c // 2 != a]), free.pop()))
        R.shuffle(pieces)
        out.append(line(f"x:{i}", [d for _, d in pieces], [s for s, _ in pieces], len(pieces)))
    for fam, n_src, count in (("r8", 8, 250), ("r8l2", 16, 100)):
        for i in range(count):
            perm = list(range(8))
            R.shuffle(perm)
            out.append(line(f"{fam}:{i}", perm, [R.randrange(n_src) for _ in range(8)], 8))
    for i in range(150):
        dst = R.sample(range(16), 12)
        out.append(line(f"r12:{i}", dst, [R.randrange(16) for _ in range(12)], 12))
    old = open(os.path.join(HERE, "layouts2.txt")).read().splitlines()
    out += [old[k].replace(" w", " old:w", 1).replace(" h", " old:h", 1).replace(" r", " old:r", 1)
            for k in range(0, len(old), 30)]
    print("\n".join(out))


if __name__ == "__main__":
    main()
