"""What the Xeon's one-thread spread follows: before each `warpscope run` (RAYON_NUM_THREADS=1,
WARPSCOPE_TIMING=1; pinned with the probes to one CPU, a different CPU each round) four probes of
the same CPU: a dependent add chain (the clock; latency-bound), four independent add chains (the
ALU ports' throughput, which a busy sibling hyperthread shares), memset bandwidth over 256 MB and
the latency of dependent loads over 32 MB. Then, per program, the correlation of the launches'
seconds with each probe over the runs.  usage: probe3.py OUTDIR"""
import json, os, re, shutil, statistics, subprocess, sys, time

R = sys.argv[1]
LIMIT = float(os.environ.get("LIMIT", "150"))
ROUNDS = int(os.environ.get("ROUNDS", "8"))
T0 = time.monotonic()
PROGS = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"])]
LAUNCH = re.compile(r" threads: wall ([0-9.]+) s \[")
TS = shutil.which("taskset")
NCPU = os.cpu_count() or 1


def probe(cpu, *args):
    out = subprocess.run([TS, "-c", cpu, "./cpuprobe", *args], capture_output=True, text=True).stdout.split()
    return [float(x) for x in out]


def run(prog, args, cpu):
    env = dict(os.environ, RAYON_NUM_THREADS="1", WARPSCOPE_TIMING="1")
    export = f"{R}/{prog}.json"
    clock = probe(cpu, "clock1")[0]
    ilp = probe(cpu, "ilp1")[0]
    bw, lat, _ = probe(cpu, "mem1", "256")
    cmd = [TS, "-c", cpu, "./main/warpscope", "run", "--cudart", "./main/libwarpscope_cudart.so", "--export", export, "--", "./" + prog] + args
    with open(f"{R}/err.txt", "wb") as e:
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=e)
    launch = sum(float(x) for x in LAUNCH.findall(open(f"{R}/err.txt", errors="replace").read()))
    return dict(launch=launch, clock=clock, ilp=ilp, bw=bw, lat=lat)


def corr(x, y):
    mx, my = statistics.mean(x), statistics.mean(y)
    sx = sum((a - mx) ** 2 for a in x) ** 0.5
    sy = sum((b - my) ** 2 for b in y) ** 0.5
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / (sx * sy) if sx and sy else float("nan")


small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"]}
for prog, _ in PROGS:
    run(prog, small[prog], "1")
res = {}
print("round cpu program   launch s  clock GHz  4-chain adds/ns  memset GB/s  load ns", flush=True)
for rnd in range(ROUNDS):
    cpu = str((1 + 5 * rnd) % NCPU)
    for prog, args in PROGS:
        if LIMIT - (time.monotonic() - T0) < 10:
            break
        r = run(prog, args, cpu)
        res.setdefault(prog, []).append(r)
        print(f"{rnd + 1:>5} {cpu:>3} {prog:<9} {r['launch']:8.3f} {r['clock']:10.3f} {r['ilp']:16.3f} {r['bw']:12.2f} {r['lat']:8.1f}", flush=True)
print("\ncorrelation of the launch seconds with each probe (Pearson, over the runs; launch s min/median/max)")
for prog, rs in res.items():
    if len(rs) < 3:
        continue
    ls = [r["launch"] for r in rs]
    cs = "  ".join(f"{k} {corr(ls, [r[k] for r in rs]):+.2f}" for k in ("clock", "ilp", "bw", "lat"))
    print(f"{prog:<9} n={len(rs)}  {min(ls):.3f}/{statistics.median(ls):.3f}/{max(ls):.3f}  {cs}")
print(f"total {time.monotonic() - T0:.1f} s")
