#!/usr/bin/env python3
"""old/ and new/ warpscope run on the bench programs: wall, CPU, peak RSS, thread-instructions/s.
usage: measure.py OUTDIR [runs] [threads,..] [case;case..]  (a case: "prog arg arg")"""
import json, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
threads = [int(t) for t in (sys.argv[3] if len(sys.argv) > 3 else "1,16").split(",")]
cases = [c.split() for c in (sys.argv[4] if len(sys.argv) > 4 else
         "reduce 24;transpose 4096;loop 20000 64;summatrix 13").split(";")]
bins = [b for b in (os.environ.get("BINS") or "old,new").split(",")]
os.makedirs(out, exist_ok=True)
env0 = dict(os.environ)
if os.path.isdir(os.path.join(here, "cuda")):
    env0["WARPSCOPE_CUDA_ROOT"] = os.path.join(here, "cuda")
env0["LD_LIBRARY_PATH"] = here + (":" + env0["LD_LIBRARY_PATH"] if env0.get("LD_LIBRARY_PATH") else "")


def one(b, prog, args, thr, export):
    env = dict(env0)
    env["RAYON_NUM_THREADS"] = str(thr)
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(here, b, "warpscope"), "run", "--export", export, "--", os.path.join(here, prog)] + args,
                         env=env, cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    try:
        n = sum(l.get("thread_instructions", 0) for l in json.load(open(export))["launches"])
    except (OSError, ValueError, KeyError):
        n = 0
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, n, os.waitstatus_to_exitcode(st)


def h(x):
    for u, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= f:
            return f"{x / f:.2f} {u}"
    return f"{x:.0f}"


print(f"machine: {os.cpu_count()} CPUs, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
print(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}; best of {runs} by wall")
print(f"{'bin':<4} {'program':<10} {'args':<11} {'thr':>3} {'wall s':>7} {'CPU s':>7} {'RSS MB':>7} {'thr-inst':>10} {'inst/s':>10} {'rc':>3}")
sys.stdout.flush()
for c in cases:
    prog, args = c[0], c[1:]
    # fill the tool cache (nvdisasm of the cubin) first
    for b in bins:
        one(b, prog, {"reduce": ["12"], "transpose": ["64"], "loop": ["10", "1"], "summatrix": ["6"], "nbody": ["256", "1"]}.get(prog, args), 1, os.path.join(out, "warm.json"))
    for thr in threads:
        for b in bins:
            export = os.path.join(out, f"{b}.{prog}.{thr}.json")
            r = min((one(b, prog, args, thr, export) for _ in range(runs)), key=lambda x: x[0])
            wall, cpu, rss, n, rc = r
            print(f"{b:<4} {prog:<10} {' '.join(args):<11} {thr:>3} {wall:>7.2f} {cpu:>7.2f} {rss:>7.0f} {h(n):>10} {h(n / wall):>10} {rc:>3}")
            sys.stdout.flush()
print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
