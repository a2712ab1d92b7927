"""Is the Xeon's one-thread spread the clock the thread gets? Each `warpscope run` (RAYON_NUM_THREADS=1,
WARPSCOPE_TIMING=1) between two short clock probes (cpuprobe clock1: a dependent chain of adds, GHz) on the
same CPU set, so that the launch's seconds times the clock give cycles, and thread-instructions per cycle
compare across runs and machines. Unpinned runs, then runs pinned to each of two CPUs (the probe pinned
with them). Before: each CPU's clock pinned to it, each CPU's busy ticks over 5 idle seconds, the busiest
threads.  usage: probe2.py OUTDIR"""
import json, os, re, shutil, statistics, subprocess, sys, time

R = sys.argv[1]
LIMIT = float(os.environ.get("LIMIT", "200"))
ROUNDS = int(os.environ.get("ROUNDS", "4"))
PINS = os.environ.get("PINS", "5,9").split(",")
T0 = time.monotonic()
PROGS = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"])]
INST = {}
LAUNCH = re.compile(r" threads: wall ([0-9.]+) s \[.*?process: user ([0-9.]+) s, sys ([0-9.]+) s, (\d+) minor faults, (\d+) voluntary and (\d+) involuntary")
TS = shutil.which("taskset")


def pinned(cpu, cmd):
    return [TS, "-c", cpu] + cmd if cpu is not None and TS else cmd


def clock(cpu=None, n="50000000"):
    out = subprocess.run(pinned(cpu, ["./cpuprobe", "clock1", n]), capture_output=True, text=True).stdout
    return float(out.strip() or 0)


def cpu_ticks():
    rows = {}
    for line in open("/proc/stat"):
        f = line.split()
        if re.fullmatch(r"cpu\d+", f[0]):
            v = [int(x) for x in f[1:]]
            rows[f[0]] = (v[0] + v[1] + v[2] + v[5] + v[6], v[7])  # busy, steal
    return rows


def run(prog, args, cpu):
    env = dict(os.environ, RAYON_NUM_THREADS="1", WARPSCOPE_TIMING="1")
    export = f"{R}/{prog}.json"
    cmd = pinned(cpu, ["./main/warpscope", "run", "--cudart", "./main/libwarpscope_cudart.so", "--export", export, "--", "./" + prog] + args)
    g0 = clock(cpu)
    t = time.monotonic()
    with open(f"{R}/err.txt", "wb") as e:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=e)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t
    g1 = clock(cpu)
    launches = LAUNCH.findall(open(f"{R}/err.txt", errors="replace").read())
    if prog not in INST:
        INST[prog] = sum(l.get("thread_instructions", 0) for l in json.load(open(export))["launches"])
    ls = sum(float(l[0]) for l in launches)
    lu = sum(float(l[1]) + float(l[2]) for l in launches)
    inv = sum(int(l[5]) for l in launches)
    ghz = (g0 + g1) / 2
    ls_ = max(ls, 1e-6)
    return dict(wall=wall, user=ru.ru_utime, sys=ru.ru_stime, launch=ls, lcpu=lu, inv=inv, g0=g0, g1=g1,
                ipc=INST[prog] / (ls_ * max(ghz, 1e-3) * 1e9), rate=INST[prog] / ls_ / 1e9)


print("== each CPU's clock (GHz, pinned, 2 x 4e8 adds)")
for c in range(os.cpu_count() or 1):
    print(f"cpu{c}: {clock(str(c), '50000000'):.3f} {clock(str(c), '50000000'):.3f}", flush=True)
a = cpu_ticks()
time.sleep(5)
b = cpu_ticks()
print("== busy and steal ticks per CPU over 5 idle seconds:", " ".join(f"{k}:{b[k][0] - a[k][0]}/{b[k][1] - a[k][1]}" for k in a))
ps = subprocess.run(["ps", "-eLo", "psr,pcpu,stat,pid,tid,comm", "--sort=-pcpu"], capture_output=True, text=True).stdout
print("== busiest threads\n" + "\n".join(ps.splitlines()[:15]), flush=True)

small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"]}
for prog, _ in PROGS:
    run(prog, small[prog], None)
INST.clear()
res = {}
print("\nmode      round program   launch s  launch CPU s  GHz before  after  G inst/launch s  thread-inst/cycle  inv.sw", flush=True)
modes = ["free"] + [f"cpu{c}" for c in PINS]
for rnd in range(1, ROUNDS + 1):
    for mode in modes:
        if LIMIT - (time.monotonic() - T0) < 25:
            break
        cpu = None if mode == "free" else mode[3:]
        for prog, args in PROGS:
            r = run(prog, args, cpu)
            res.setdefault((mode, prog), []).append(r)
            print(f"{mode:<9} {rnd:>5} {prog:<9} {r['launch']:8.3f} {r['lcpu']:13.3f} {r['g0']:11.3f} {r['g1']:6.3f} {r['rate']:16.3f} {r['ipc']:18.3f} {r['inv']:7d}", flush=True)
print("\nsummary: min / median / max")
for (mode, prog), rs in res.items():
    def m(k, f="{:.3f}"):
        v = sorted(x[k] for x in rs)
        return "/".join(f.format(x) for x in (v[0], statistics.median(v), v[-1]))
    print(f"{mode:<9} {prog:<9} launch s {m('launch')}  GHz {m('g0')}  thread-inst/cycle {m('ipc')}")
print(f"thread-instructions: {INST}")
print(f"total {time.monotonic() - T0:.1f} s")
