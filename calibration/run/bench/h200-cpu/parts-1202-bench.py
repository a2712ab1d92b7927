"""main against new: wall, CPU (user + sys), peak RSS (/usr/bin/time -v) and the launches' own
seconds (WARPSCOPE_TIMING=1) of `warpscope run` on the bench programs at 1 and 16 threads,
alternated, best and median over the rounds; then every export at 1, 2 and 16 threads of both
compared byte for byte."""
import filecmp, os, re, statistics, subprocess, sys, time

R = sys.argv[1]
LIMIT = float(os.environ.get("LIMIT", "230"))
T0 = time.monotonic()
PROGS = [("reduce", ["24"]), ("transpose", ["4096"]), ("nbody", ["4096", "1"]), ("loop", ["20000", "64"])]
if os.environ.get("QUICK"):
    PROGS = [("reduce", ["20"]), ("transpose", ["1024"]), ("nbody", ["1024", "1"]), ("loop", ["2000", "64"])]
TIME_V = os.access("/usr/bin/time", os.X_OK)
LAUNCH_WALL = re.compile(r" threads: wall ([0-9.]+) s \[")


def run(build, prog, args, threads, export, timing=True):
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = str(threads)
    if timing:
        env["WARPSCOPE_TIMING"] = "1"
    else:
        env.pop("WARPSCOPE_TIMING", None)
    cmd = [f"./{build}/warpscope", "run", "--cudart", f"./{build}/libwarpscope_cudart.so",
           "--export", export, "--", "./" + prog] + args
    t = time.monotonic()
    if TIME_V:
        p = subprocess.run(["/usr/bin/time", "-v"] + cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
        wall = time.monotonic() - t
        err = p.stderr
        def field(name):
            m = re.search(re.escape(name) + r": ([0-9.:]+)", err)
            return m.group(1) if m else None
        user, sys_ = float(field("User time (seconds)") or 0), float(field("System time (seconds)") or 0)
        rss = int(field("Maximum resident set size (kbytes)") or 0) / 1024
        rc = p.returncode
    else:
        with open(export + ".err", "wb") as e:
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=e)
            _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t
        err = open(export + ".err", errors="replace").read()
        os.unlink(export + ".err")
        user, sys_, rss = ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024
        rc = os.waitstatus_to_exitcode(status)
    launches = sum(float(x) for x in LAUNCH_WALL.findall(err))
    return dict(wall=wall, cpu=user + sys_, sys=sys_, rss=rss, launch=launches, rc=rc)


def left():
    return LIMIT - (time.monotonic() - T0)


res = {}
print("peak RSS and CPU by", "/usr/bin/time -v" if TIME_V else "wait4 (no /usr/bin/time)", flush=True)
rounds = 0
# warm the tool cache (nvdisasm of each cubin) once per program
for prog, args in PROGS:
    small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"]}[prog]
    for b in ("main", "new"):
        run(b, prog, small, 16, f"{R}/warm.json", timing=False)
print(f"warm {time.monotonic() - T0:.1f} s", flush=True)
while rounds < int(os.environ.get("ROUNDS", "5")) and left() > 75:
    rounds += 1
    for prog, args in PROGS:
        for threads in (1, 16):
            order = ("main", "new") if rounds % 2 else ("new", "main")
            for b in order:
                r = run(b, prog, args, threads, f"{R}/{prog}.{b}.t{threads}.r{rounds}.json")
                res.setdefault((prog, threads, b), []).append(r)
                print(f"round {rounds} {prog} {threads} {b} wall {r['wall']:.3f} cpu {r['cpu']:.3f} sys {r['sys']:.3f} rss {r['rss']:.0f} MB launch {r['launch']:.3f} rc {r['rc']}", flush=True)
    print(f"round {rounds} done at {time.monotonic() - T0:.1f} s", flush=True)

print(f"\nsummary over {rounds} rounds: best / median")
print(f"{'program':<10} {'thr':>3} {'build':<5} {'wall s':>15} {'CPU s':>15} {'sys s':>13} {'peak RSS MB':>13} {'launch s':>15}")
for prog, _ in PROGS:
    for threads in (1, 16):
        for b in ("main", "new"):
            rs = res.get((prog, threads, b), [])
            if not rs:
                continue
            def bm(k):
                v = [r[k] for r in rs]
                return f"{min(v):.3f}/{statistics.median(v):.3f}"
            print(f"{prog:<10} {threads:>3} {b:<5} {bm('wall'):>15} {bm('cpu'):>15} {bm('sys'):>13} {bm('rss'):>13} {bm('launch'):>15}")

# exports: the first round's at 1 and 16 threads, plus a run at 2 threads each
print("\nexports (byte for byte, against main at 1 thread):")
for prog, args in PROGS:
    if left() < 10:
        print("time out before", prog)
        break
    for b in ("main", "new"):
        run(b, prog, args, 2, f"{R}/{prog}.{b}.t2.json", timing=False)
    ref = f"{R}/{prog}.main.t1.r1.json"
    for b in ("main", "new"):
        for tag in ("t1.r1", "t2", "t16.r1"):
            f = f"{R}/{prog}.{b}.{tag}.json"
            ok = os.path.exists(f) and os.path.exists(ref) and filecmp.cmp(ref, f, shallow=False)
            print(f"{prog:<10} {b:<5} {tag:<7} {'same' if ok else 'DIFF'}", flush=True)
    # every round's exports too
    same = all(filecmp.cmp(ref, os.path.join(R, f), shallow=False) for f in os.listdir(R) if f.startswith(prog + ".") and f.endswith(".json"))
    print(f"{prog:<10} every export of both builds (all rounds, 1/2/16 threads) equal to main's at 1 thread: {same}", flush=True)
print(f"total {time.monotonic() - T0:.1f} s")
