# Per launch of a scale.py table (bench.txt rows, any number of files): each bin's best and median
# wall seconds and the number of runs, at each thread count.
#
#   python3 launch_stats.py r1.txt [r2.txt ...]
import sys, re, statistics, collections
runs = collections.defaultdict(list)
for path in sys.argv[1:]:
    for l in open(path):
        f = l.split()
        if len(f) < 16 or f[0] not in ("old", "new", "fix") or f[-1] == "(time)":
            continue
        b, prog = f[0], f[1]
        # args: 1 or 2 fields before thr
        i = 2
        while not (f[i].isdigit() and f[i + 1].replace(".", "").isdigit() and "." in f[i + 1]):
            i += 1
        args = " ".join(f[2:i]); th = int(f[i])
        for x in f:
            m = re.match(r"^(\d+):([0-9.]+)$", x)
            if m:
                runs[(prog, args, int(m.group(1)), th, b)].append(float(m.group(2)))
keys = sorted({k[:4] for k in runs})
print(f"{'launch':<18} {'thr':>3}  " + "  ".join(f"{b:>22}" for b in ("old", "new", "fix")))
for k in keys:
    cells = []
    for b in ("old", "new", "fix"):
        v = sorted(runs.get(k + (b,), []))
        cells.append(f"{min(v):.3f}/{statistics.median(v):.3f} ({len(v)})" if v else "-")
    print(f"{k[0]+' '+k[1]+' #'+str(k[2]):<18} {k[3]:>3}  " + "  ".join(f"{c:>22}" for c in cells))
