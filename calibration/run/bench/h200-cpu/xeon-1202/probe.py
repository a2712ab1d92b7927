"""Where one thread's time goes on this host: `warpscope run` (RAYON_NUM_THREADS=1, WARPSCOPE_TIMING=1)
on reduce 2^24, transpose 4096, nbody 4096 and loop 20000 64, several rounds, each run's wall,
user and system seconds, minor/major faults, voluntary/involuntary context switches (wait4's
rusage), the launches' own seconds, and the host's steal and iowait ticks over the run (/proc/stat).
Variants (each a phase of its own, programs alternated within a round):
  plain      as bench-run.sh runs it
  pin        taskset -c 5 (one core, no migration; the last core on a smaller host)
  tuned      glibc's malloc told to keep its memory (GLIBC_TUNABLES: no trim, mmap threshold 32 MB, top pad 64 MB)
  nohuge     WARPSCOPE_HUGE_PAGES=0
  after-touch  plain again, after 24 GB of fresh memory touched and freed (host pages behind the guest's)
usage: probe.py OUTDIR BUILD... (each BUILD a folder with warpscope and libwarpscope_cudart.so)"""
import os, re, shutil, statistics, subprocess, sys, time

R = sys.argv[1]
BUILDS = sys.argv[2:] or ["main"]
LIMIT = float(os.environ.get("LIMIT", "400"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
PHASES = os.environ.get("PHASES", "plain,pin,tuned,nohuge,touch,after-touch").split(",")
T0 = time.monotonic()
PROGS = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"]), ("loop", ["20000", "64"])]
LAUNCH_WALL = re.compile(r" threads: wall ([0-9.]+) s \[")
TASKSET = shutil.which("taskset")
CLK = os.sysconf("SC_CLK_TCK")


def stat():
    f = open("/proc/stat").readline().split()
    return [int(x) for x in f[1:]]  # user nice system idle iowait irq softirq steal ...


def run(build, prog, args, env_extra, pin=False, save=None):
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = "1"
    env["WARPSCOPE_TIMING"] = "1"
    env.update(env_extra)
    export = f"{R}/{prog}.{build}.json"
    cmd = [f"./{build}/warpscope", "run", "--cudart", f"./{build}/libwarpscope_cudart.so", "--export", export, "--", "./" + prog] + args
    if pin and TASKSET:
        cmd = [TASKSET, "-c", str(min(5, (os.cpu_count() or 1) - 1))] + cmd
    s0 = stat()
    t = time.monotonic()
    with open(f"{R}/err.txt", "wb") as e:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=e)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t
    s1 = stat()
    err = open(f"{R}/err.txt", errors="replace").read()
    if save:
        shutil.copy(f"{R}/err.txt", save)
    return dict(wall=wall, user=ru.ru_utime, sys=ru.ru_stime, minflt=ru.ru_minflt, majflt=ru.ru_majflt,
                nvcsw=ru.ru_nvcsw, nivcsw=ru.ru_nivcsw, rss=ru.ru_maxrss / 1024,
                launch=sum(float(x) for x in LAUNCH_WALL.findall(err)),
                steal=(s1[7] - s0[7]) / CLK, iowait=(s1[4] - s0[4]) / CLK, rc=os.waitstatus_to_exitcode(status))


VARIANTS = {
    "plain": ({}, False),
    "pin": ({}, True),
    "tuned": ({"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=67108864"}, False),
    "nohuge": ({"WARPSCOPE_HUGE_PAGES": "0"}, False),
    "after-touch": ({}, False),
}
res = {}
small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"]}
for prog, _ in PROGS:
    for b in BUILDS:
        run(b, prog, small[prog], {})
print(f"warm {time.monotonic() - T0:.1f} s", flush=True)
hdr = "phase        round program   build   wall   user    sys  minflt majflt  nvcsw nivcsw  rss MB launch  steal iowait rc"
print(hdr, flush=True)
for phase in PHASES:
    if phase == "touch":
        out = subprocess.run(["./cpuprobe", "touch", os.environ.get("TOUCH_MB", "24576")], capture_output=True, text=True)
        print("touch:", out.stdout.strip(), out.stderr.strip(), flush=True)
        continue
    env_extra, pin = VARIANTS[phase]
    for rnd in range(1, ROUNDS + 1):
        if LIMIT - (time.monotonic() - T0) < 40:
            print("time limit: stop before", phase, rnd, flush=True)
            break
        for prog, args in PROGS:
            order = BUILDS if rnd % 2 else BUILDS[::-1]
            for b in order:
                save = f"{R}/timing-{phase}-{prog}-{b}.txt" if rnd == 1 else None
                r = run(b, prog, args, env_extra, pin, save)
                res.setdefault((phase, prog, b), []).append(r)
                print(f"{phase:<12} {rnd:>5} {prog:<9} {b:<5} {r['wall']:6.3f} {r['user']:6.3f} {r['sys']:6.3f} {r['minflt']:7d} {r['majflt']:6d} {r['nvcsw']:6d} {r['nivcsw']:6d} {r['rss']:7.0f} {r['launch']:6.3f} {r['steal']:6.2f} {r['iowait']:6.2f} {r['rc']}", flush=True)

print("\nsummary: best / median")
print(f"{'phase':<12} {'program':<9} {'build':<5} {'wall':>13} {'user':>13} {'sys':>13} {'launch':>13} {'minflt':>9}")
for (phase, prog, b), rs in res.items():
    def bm(k):
        v = [r[k] for r in rs]
        return f"{min(v):.3f}/{statistics.median(v):.3f}"
    print(f"{phase:<12} {prog:<9} {b:<5} {bm('wall'):>13} {bm('user'):>13} {bm('sys'):>13} {bm('launch'):>13} {int(statistics.median([r['minflt'] for r in rs])):>9}")
print(f"total {time.monotonic() - T0:.1f} s")
