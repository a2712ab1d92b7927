# old/ against new/ (warpscope run), alternating per run, at 1 and 16 threads, with
# WARPSCOPE_TIMING=1 on every run (the per-launch wall of the block phase): whole-process wall,
# user, sys, peak RSS, warp instructions per wall second; best and median per binary; per launch
# of >= 1,000 blocks, best and median launch wall and the 1 -> 16 speed-up; exports compared.
#   python3 bench.py OUTDIR
import json, os, re, subprocess, sys, time, statistics as st
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
T0 = time.monotonic()
LIMIT = float(os.environ.get("LIMIT", "300"))  # seconds: later rounds are skipped past this
log = open(os.path.join(out, "bench.txt"), "w")
tim = open(os.path.join(out, "timing.txt"), "w")
def say(s):
    print(s, flush=True); log.write(s + "\n"); log.flush()
def run(b, prog, args, threads, export, flow=None):
    env = dict(os.environ)
    if flow: env["WARPSCOPE_MACHINE_FLOW"] = flow
    env["RAYON_NUM_THREADS"] = str(threads)
    env["WARPSCOPE_TIMING"] = "1"
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(here, b, "warpscope"), "run", "--cudart", os.path.join(here, b, "libwarpscope_cudart.so"),
                          "--export", export, "--", "./" + prog] + args,
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
def series(prog, args, rounds, flow=None):
    say(f"## {prog} {' '.join(args)}: old/new and 1/16 threads alternating, {rounds} rounds" + (f", WARPSCOPE_MACHINE_FLOW={flow}" if flow else ""))
    say(f"{'bin':<4} {'thr':>3} {'round':>5} {'wall s':>7} {'user s':>7} {'sys s':>6} {'RSS MB':>7} {'warp-inst':>10} {'M warp-inst/s':>13} rc")
    res = {}
    for i in range(rounds):
        if time.monotonic() - T0 > LIMIT:
            say(f"rounds from {i} skipped (time)"); break
        order = [(b, th) for b in (("old", "new") if i % 2 == 0 else ("new", "old")) for th in ((1, 16) if i % 4 < 2 else (16, 1))]
        for b, th in order:
            ex = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}{'.' + flow if flow else ''}.{th}.json")
            wall, us, ss, rss, rc, err = run(b, prog, args, th, ex, flow)
            wi, ti = counts(ex)
            res.setdefault((b, th), []).append((wall, us, wi))
            say(f"{b:<4} {th:>3} {i:>5} {wall:7.3f} {us:7.3f} {ss:6.3f} {rss:7.0f} {wi:>10} {wi / wall / 1e6:13.2f} {rc}")
            tl = [l for l in err.splitlines() if "blocks," in l and "threads: wall" in l]
            tim.write(f"== {b} {prog} {' '.join(args)}{' flow=' + flow if flow else ''} threads={th} round={i} wall={wall:.3f} user={us:.3f} rc={rc}\n" + "\n".join(tl) + "\n"); tim.flush()
    sfx = '.' + flow if flow else ''
    for th in (1, 16):
        o = os.path.join(out, f"old.{prog}.{'_'.join(args)}{sfx}.{th}.json"); n = os.path.join(out, f"new.{prog}.{'_'.join(args)}{sfx}.{th}.json")
        if os.path.exists(o) and os.path.exists(n):
            same.append(f"{'same' if open(o, 'rb').read() == open(n, 'rb').read() else 'DIFF'} old/new {prog} {' '.join(args)} threads={th}")
    n1 = os.path.join(out, f"new.{prog}.{'_'.join(args)}{sfx}.1.json"); n16 = os.path.join(out, f"new.{prog}.{'_'.join(args)}{sfx}.16.json")
    if os.path.exists(n1) and os.path.exists(n16):
        same.append(f"{'same' if open(n1, 'rb').read() == open(n16, 'rb').read() else 'DIFF'} new 1/16 threads {prog} {' '.join(args)}")
    for (b, th), r in sorted(res.items(), key=lambda x: (x[0][1], x[0][0] != "old")):
        walls = [x[0] for x in r]; users = [x[1] for x in r]; wi = r[0][2]
        say(f"summary {b} {prog} {' '.join(args)}{' flow=' + flow if flow else ''} thr={th}: runs {len(r)}, wall best {min(walls):.3f} median {st.median(walls):.3f}, user best {min(users):.3f} median {st.median(users):.3f}, M warp-inst/s at best wall {wi / min(walls) / 1e6:.2f}, at median {wi / st.median(walls) / 1e6:.2f}")
# warm the file cache, ptxas and cuobjdump
for b in ("old", "new"):
    for prog, args in (("radix", []), ("fdiv", []), ("hashq", []), ("reduce", ["12"])):
        run(b, prog, args, 1, os.path.join(out, "warm.json"))
series("radix", [], 10)
series("fdiv", [], 6)
series("hashq", [], 6)
series("reduce", ["24"], 3)
series("radix", [], 6)
say("## exports")
for s in same: say(s)
say(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}; total {time.monotonic() - T0:.0f} s")
