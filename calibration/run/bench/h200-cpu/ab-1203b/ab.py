"""One-thread A/B of two warpscope builds (base/, new/) on reduce 2^24, transpose 4096, nbody 4096:
rounds alternate which build runs first; every run pinned (taskset) to the round's CPU, with the
clock (dependent add chain) and the 4-chain add throughput of that CPU probed just before it
(cpuprobe clock1 / ilp1, as calibration/run/bench/h200-cpu/xeon-1202/probe3.py). Per run: the
launches' own wall and user seconds (WARPSCOPE_TIMING), summed.  usage: ab.py OUTDIR"""
import os, re, shutil, subprocess, sys, time, filecmp

R = sys.argv[1]
LIMIT = float(os.environ.get("LIMIT", "250"))
T0 = time.monotonic()
PROGS = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"])]
WALL = re.compile(r" threads: wall ([0-9.]+) s \[")
USER = re.compile(r"process: user ([0-9.]+) s")
TS = shutil.which("taskset")
NCPU = os.cpu_count() or 1


def probe(cpu, *args):
    out = subprocess.run([TS, "-c", cpu, "./cpuprobe", *args], capture_output=True, text=True).stdout.split()
    return float(out[0]) if out else float("nan")


def run(b, prog, args, cpu, export):
    env = dict(os.environ, RAYON_NUM_THREADS="1", WARPSCOPE_TIMING="1")
    clock, ilp = probe(cpu, "clock1"), probe(cpu, "ilp1")
    cmd = [TS, "-c", cpu, f"./{b}/warpscope", "run", "--cudart", f"./{b}/libwarpscope_cudart.so", "--export", export, "--", "./book/" + prog] + args
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    return sum(map(float, WALL.findall(p.stderr))), sum(map(float, USER.findall(p.stderr))), clock, ilp, p.returncode


small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"]}
for b in ("base", "new"):
    for prog, _ in PROGS:
        run(b, prog, small[prog], "1", f"{R}/warm.json")
print("round cpu build program   launch s  user s  clock GHz  adds/ns rc", flush=True)
rnd = 0
best = {}
while LIMIT - (time.monotonic() - T0) > 25:
    cpu = str((1 + 5 * rnd) % NCPU)
    order = ("base", "new") if rnd % 2 == 0 else ("new", "base")
    for prog, args in PROGS:
        for b in order:
            ex = f"{R}/{prog}.{b}.json" if rnd == 0 else f"{R}/last.json"
            w, u, c, i, rc = run(b, prog, args, cpu, ex)
            best.setdefault((prog, b), []).append((w, u, c, i))
            print(f"{rnd + 1:>5} {cpu:>3} {b:<5} {prog:<9} {w:8.3f} {u:7.3f} {c:10.3f} {i:8.3f} {rc}", flush=True)
    rnd += 1
print("\nprogram   build  runs  best launch s  median launch s  best user s")
for (prog, b), rs in sorted(best.items()):
    ws = sorted(r[0] for r in rs)
    print(f"{prog:<9} {b:<5} {len(rs):5d} {ws[0]:14.3f} {ws[len(ws) // 2]:16.3f} {min(r[1] for r in rs):12.3f}")
for prog, _ in PROGS:
    a, n = f"{R}/{prog}.base.json", f"{R}/{prog}.new.json"
    if os.path.exists(a) and os.path.exists(n):
        print(f"export {prog}: {'identical' if filecmp.cmp(a, n, shallow=False) else 'DIFFERENT'}")
