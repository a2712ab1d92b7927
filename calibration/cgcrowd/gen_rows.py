#!/usr/bin/env python3
"""Second battery of cw.cu (plain form, one copy per launch): small configurations in one shared
row, to see which sector moves share a wavefront when a source sector is read more than once.
The configuration's lanes copy into shared row 0 from source line 0; every other lane copies
straight (lane l: chunk 320 + l to chunk 64 + l: source lines 40-43 into shared rows 8-11, one
wavefront per line by calibration/ldsm rule 4, 4 in all), so the row-0 part is the count less 4.
- w3: three whole-sector moves (lanes 0-5, two lanes each, halves straight) S_a -> D_x,
  S_b -> D_y, S_c -> D_z with (a, b, c) = (a, a, b) or (a, b, a), a != b, x, y, z distinct.
- w4: four whole-sector moves (lanes 0-7) from sectors (a, a, b, b), (a, b, a, b) or (a, b, b, a)
  into destination sectors given by a permutation.
- h4: four half pieces (lanes 0-3), source halves 0 of sectors (a, a, b, b) or (a, b, a, b) into
  destination halves 0 of sectors given by a permutation.
- r8: lanes 0-7 into the eight chunks of row 0 (a random permutation) from random chunks of
  source line 0 (repeats allowed; own seed); r8l2: the same from lines 0 and 1.
Usage: gen_rows.py > layouts2.txt"""
import itertools
import random


def fill(dst, src, first):
    for l in range(first, 32):
        dst[l] = 64 + l
        src[l] = 320 + l


def line(name, dst, src):
    return f"2 1 {name} " + " ".join(str(x) for x in dst + src + [1] * 32)


def wholes(name, ss, xs):
    dst, src = [0] * 32, [0] * 32
    for u in range(len(ss)):
        for h in range(2):
            dst[2 * u + h] = 2 * xs[u] + h
            src[2 * u + h] = 2 * ss[u] + h
    fill(dst, src, 2 * len(ss))
    return line(name, dst, src)


def main():
    out = []
    for a, b in ((0, 1), (0, 2), (1, 0), (2, 0)):
        for pat in ("aab", "aba"):
            ss = [a if ch == "a" else b for ch in pat]
            for xs in itertools.permutations(range(4), 3):
                out.append(wholes(f"w3:{pat}:S{''.join(map(str, ss))}:D{''.join(map(str, xs))}", ss, xs))
    for a, b in ((0, 1), (0, 2)):
        for pat in ("aabb", "abab", "abba"):
            ss = [a if ch == "a" else b for ch in pat]
            for xs in itertools.permutations(range(4)):
                out.append(wholes(f"w4:{pat}:S{''.join(map(str, ss))}:D{''.join(map(str, xs))}", ss, xs))
    for a, b in ((0, 1), (0, 2)):
        for pat in ("aabb", "abab"):
            ss = [a if ch == "a" else b for ch in pat]
            for xs in itertools.permutations(range(4)):
                dst, src = [0] * 32, [0] * 32
                for u in range(4):
                    dst[u] = 2 * xs[u]
                    src[u] = 2 * ss[u]
                fill(dst, src, 4)
                out.append(line(f"h4:{pat}:S{''.join(map(str, ss))}:D{''.join(map(str, xs))}", dst, src))
    R = random.Random(3030)
    for i in range(200):
        dst, src = [0] * 32, [0] * 32
        perm = list(range(8))
        R.shuffle(perm)
        for l in range(8):
            dst[l] = perm[l]
            src[l] = R.randrange(8)
        fill(dst, src, 8)
        out.append(line(f"r8:{i}", dst, src))
    for i in range(100):
        dst, src = [0] * 32, [0] * 32
        perm = list(range(8))
        R.shuffle(perm)
        for l in range(8):
            dst[l] = perm[l]
            src[l] = R.randrange(16)
        fill(dst, src, 8)
        out.append(line(f"r8l2:{i}", dst, src))
    print("\n".join(out))


if __name__ == "__main__":
    main()
