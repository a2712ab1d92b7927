# per launch of >= 1,000 blocks from timing.txt: best / median launch wall per binary and thread
# count, 1 -> 16 speed-up, thread seconds of the blocks (and the shadow's), fold, merge
import re, sys, statistics as st
LAUNCH = re.compile(r"(\S+<<<\([^)]*\),\([^)]*\)>>>) (\d+) blocks, (\d+) threads: wall ([0-9.]+) s.*thread seconds: blocks ([0-9.]+) \(shadow ([0-9.]+)\), fold ([0-9.]+), merge ([0-9.]+), window waits ([0-9.]+)")
HEAD = re.compile(r"== (\w+) (\w+) (\S+)(?: flow=(\w+))? threads=(\d+) round=(\d+)")
d = {}
cur = None
for l in open(sys.argv[1]):
    m = HEAD.match(l)
    if m:
        g = m.groups(); cur = (g[0], g[1], g[2] + ("/flow=" + g[3] if g[3] else ""), g[4], g[5]); k = 0; continue
    m = LAUNCH.search(l)
    if m and cur:
        b, prog, args, th, rnd = cur
        if int(m.group(2)) >= 1000:
            key = (prog, args, k, m.group(1).split(':')[-1].strip(), int(m.group(2)))
            d.setdefault(key, {}).setdefault((b, int(th)), []).append(tuple(float(m.group(i)) for i in (4, 5, 6, 7, 8)))
        k += 1
print("launch | blocks | bin | 1 thr wall best / median s | 16 thr wall best / median s | 1 -> 16 (best, medians) | blocks thread-s 1 thr / 16 thr (shadow at 16), medians")
for key, v in d.items():
    prog, args, k, name, nb = key
    for b in ("old", "new"):
        one, six = v.get((b, 1), []), v.get((b, 16), [])
        if not one or not six: continue
        w1 = [x[0] for x in one]; w16 = [x[0] for x in six]
        print(f"{prog} {args} {name} | {nb} | {b} | {min(w1):.3f} / {st.median(w1):.3f} | {min(w16):.3f} / {st.median(w16):.3f} | {min(w1)/min(w16):.1f}x, {st.median(w1)/st.median(w16):.1f}x | {st.median([x[1] for x in one]):.3f} / {st.median([x[1] for x in six]):.3f} ({st.median([x[2] for x in six]):.3f}) | runs {len(one)}/{len(six)}")
