# old/ against new/ (warpscope run), alternating per run: wall, user, sys, peak RSS, the PTX warp
# and thread instructions of the export, warp instructions per wall second; best and median.
#   python3 bench.py OUTDIR
import json, os, subprocess, sys, time, statistics as st
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
T0 = time.monotonic()
log = open(os.path.join(out, "bench.txt"), "w")
def say(s):
    print(s, flush=True); log.write(s + "\n"); log.flush()
def run(b, prog, args, threads, export, timing=False):
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = str(threads)
    if timing:
        env["WARPSCOPE_TIMING"] = "1"
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(here, b, "warpscope"), "run", "--export", export, "--", "./" + prog] + args,
                         env=env, cwd=here, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    return wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), err
def counts(export):
    try:
        d = json.load(open(export))
        return sum(l["warp_instructions"] for l in d["launches"]), sum(l["thread_instructions"] for l in d["launches"])
    except Exception:
        return 0, 0
say(f"machine: {os.cpu_count()} CPUs, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
say(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
same = []
def pairs(prog, args, threads, rounds, budget):
    say(f"## {prog} {' '.join(args)}, {threads} thread(s), old and new alternating, {rounds} rounds")
    say(f"{'bin':<4} {'round':>5} {'wall s':>7} {'user s':>7} {'sys s':>6} {'RSS MB':>7} {'warp-inst':>10} {'thr-inst':>11} {'M warp-inst/s':>13} rc")
    res = {"old": [], "new": []}
    for i in range(rounds):
        if time.monotonic() - T0 > budget:
            say(f"rounds from {i} skipped (time)"); break
        for b in (("old", "new") if i % 2 == 0 else ("new", "old")):
            ex = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}.{threads}.json")
            wall, us, ss, rss, rc, err = run(b, prog, args, threads, ex)
            wi, ti = counts(ex)
            res[b].append((wall, us, wi))
            say(f"{b:<4} {i:>5} {wall:7.3f} {us:7.3f} {ss:6.3f} {rss:7.0f} {wi:>10} {ti:>11} {wi / wall / 1e6:13.2f} {rc}")
    o = os.path.join(out, f"old.{prog}.{'_'.join(args)}.{threads}.json"); n = os.path.join(out, f"new.{prog}.{'_'.join(args)}.{threads}.json")
    s = "same" if open(o, "rb").read() == open(n, "rb").read() else "DIFF"
    same.append(f"{s} {prog} {' '.join(args)} threads={threads}")
    for b in ("old", "new"):
        r = res[b]
        if not r: continue
        walls = [x[0] for x in r]; users = [x[1] for x in r]; wi = r[0][2]
        say(f"summary {b} {prog} {' '.join(args)} thr={threads}: runs {len(r)}, wall best {min(walls):.3f} median {st.median(walls):.3f}, user best {min(users):.3f} median {st.median(users):.3f}, M warp-inst/s at best wall {wi / min(walls) / 1e6:.2f}, at median {wi / st.median(walls) / 1e6:.2f}")
# warm the file cache and ptxas
for b in ("old", "new"):
    for prog, args in (("reduce", ["12"]), ("transpose", ["64"]), ("summatrix", ["6"])):
        run(b, prog, args, 1, os.path.join(out, "warm.json"))
pairs("reduce", ["24"], 1, 14, 150)
pairs("transpose", ["4096"], 1, 6, 200)
# 1 against 16 threads on launches of >= 1000 blocks: the timing lines of every launch
say("## 1 vs 16 threads, WARPSCOPE_TIMING=1 (per-launch wall of the block phase), alternating")
tim = open(os.path.join(out, "timing.txt"), "w")
for prog, args in (("reduce", ["24"]), ("summatrix", ["13"])):
    for i in range(3):
        if time.monotonic() - T0 > 330:
            say(f"{prog} round {i} skipped (time)"); break
        for b in ("old", "new"):
            for th in ((1, 16) if i % 2 == 0 else (16, 1)):
                ex = os.path.join(out, f"t.{b}.{prog}.{th}.json")
                wall, us, ss, rss, rc, err = run(b, prog, args, th, ex, timing=True)
                lines = [l for l in err.splitlines() if "timing" in l]
                tim.write(f"== {b} {prog} {' '.join(args)} threads={th} round={i} wall={wall:.3f} user={us:.3f} rc={rc}\n" + "\n".join(lines) + "\n"); tim.flush()
                say(f"{b:<4} {prog} {' '.join(args)} threads={th:>2} round={i} wall {wall:.3f} user {us:.3f} rc {rc}")
say("## exports, old against new")
for s in same: say(s)
say(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}; total {time.monotonic() - T0:.0f} s")
