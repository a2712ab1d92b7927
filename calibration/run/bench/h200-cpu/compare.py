# warpscope run, main's binary (old/) against this branch's (new/), on the bench programs: wall, user,
# sys, peak RSS, thread-instructions and their rate, and the launches' own times (stderr lines
# `launch N ... S s`, printed for launches over 1 s).
import json, os, subprocess, sys, time, re
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
plan = [  # (binary, program, args, threads)
]
progs = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"]), ("loop", ["20000", "64"]), ("summatrix", ["13"])]
for prog, args in progs:
    for b, ths in (("old", (1, 16)), ("new", (1, 4, 8, 16))):
        for th in ths:
            plan.append((b, prog, args, th))
plan.append(("new", "summatrix", ["14"], 16))
small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"], "summatrix": ["6"]}
env0 = dict(os.environ)
env0["WARPSCOPE_CUDA_ROOT"] = os.path.join(here, "cuda")
start = time.monotonic()
def run(b, prog, args, threads, export):
    env = dict(env0)
    env["RAYON_NUM_THREADS"] = str(threads)
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(here, b, "warpscope"), "run", "--export", export, "--", "./" + prog] + args,
                         env=env, cwd=here, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t0, ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), err
def human(x):
    for u, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= f: return f"{x / f:.2f} {u}"
    return f"{x:.0f}"
lines = []
def say(s):
    print(s, flush=True); lines.append(s)
say(f"machine: {os.cpu_count()} CPUs, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
say(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
say(f"{'bin':<4} {'program':<10} {'args':<9} {'thr':>4} {'wall s':>7} {'user s':>7} {'sys s':>6} {'RSS MB':>7} {'thr-inst':>9} {'inst/s':>9} {'inst/CPU-s':>10} {'rc':>3}  launches over 1 s")
for b in ("old", "new"):
    for prog, _ in progs:
        run(b, prog, small[prog], 16, os.path.join(out, "warm.json"))
for b, prog, args, th in plan:
    if time.monotonic() - start > 220:
        say(f"{b:<4} {prog:<10} {' '.join(args):<9} {th:>4} skipped (time)")
        continue
    export = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}.{th}.json")
    wall, us, ss, rss, rc, err = run(b, prog, args, th, export)
    try:
        count = sum(l.get("thread_instructions", 0) for l in json.load(open(export))["launches"])
    except Exception:
        count = None
    launches = " ".join(m.group(1) + ":" + m.group(2) for m in re.finditer(r"launch (\d+) .*? ([0-9.]+) s,", err))
    say(f"{b:<4} {prog:<10} {' '.join(args):<9} {th:>4} {wall:>7.2f} {us:>7.2f} {ss:>6.2f} {rss:>7.0f} {('-' if count is None else human(count)):>9} {('-' if count is None else human(count / wall)):>9} {('-' if count is None else human(count / (us + ss))):>10} {rc:>3}  {launches}")
say(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
open(os.path.join(out, "bench.txt"), "w").write("\n".join(lines) + "\n")
