# warpscope run on the bench programs at 1, 4, 8 and 16 threads: wall, user, sys, peak RSS,
# thread-instructions (the export's sum) and their rate per wall second and per CPU-second.
import json, os, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
threads_list = [int(t) for t in os.environ.get("THREADS", "1 4 8 16").split()]
progs = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"]), ("loop", ["20000", "64"]),
         ("summatrix", ["14"])]
small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"], "summatrix": ["6"]}
env0 = dict(os.environ)
env0["WARPSCOPE_CUDA_ROOT"] = os.path.join(here, "cuda")
start = time.monotonic()
if os.environ.get("QUICK"): progs = [(k, v) for k, v in small.items()]
def run(prog, args, threads, export):
    env = dict(env0)
    env["RAYON_NUM_THREADS"] = str(threads)
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(here, "warpscope"), "run", "--export", export, "--", "./" + prog] + args,
                         env=env, cwd=here, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
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
head = f"{'program':<10} {'args':<11} {'thr':>4} {'wall s':>8} {'user s':>8} {'sys s':>7} {'RSS MB':>8} {'thr-inst':>10} {'inst/s':>10} {'inst/s/CPUs':>12} {'speedup':>8} {'rc':>3}"
say(head)
for prog, args in progs:
    run(prog, small[prog], 16, os.path.join(out, prog + ".warm.json"))
    base = None
    for th in threads_list:
        if time.monotonic() - start > 420:
            say(f"{prog:<10} {' '.join(args):<11} {th:>4} skipped (time)")
            continue
        export = os.path.join(out, f"{prog}.{th}.json")
        wall, us, ss, rss, rc, err = run(prog, args, th, export)
        try:
            count = sum(l.get("thread_instructions", 0) for l in json.load(open(export))["launches"])
        except Exception:
            count = None
        if th == 1: base = wall
        sp = f"{base / wall:.2f}x" if base else "-"
        rate = "-" if count is None else human(count / wall)
        cpurate = "-" if count is None else human(count / (us + ss))
        say(f"{prog:<10} {' '.join(args):<11} {th:>4} {wall:>8.2f} {us:>8.2f} {ss:>7.2f} {rss:>8.0f} {('-' if count is None else human(count)):>10} {rate:>10} {cpurate:>12} {sp:>8} {rc:>3}")
        if rc != 0:
            say("  stderr: " + err.decode(errors="replace")[-400:].replace("\n", " | "))
say(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
open(os.path.join(out, "bench.txt"), "w").write("\n".join(lines) + "\n")
