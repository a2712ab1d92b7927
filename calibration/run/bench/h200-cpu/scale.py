# warpscope run, main's binary (old/) against this branch's (new/), at 1 and 16 threads (and more),
# with WARPSCOPE_TIMING=1: per row the wall, user and sys seconds, peak RSS, minor and major page
# faults and voluntary and involuntary context switches of the run (the child's getrusage), and per
# launch of at least 1,000 blocks its wall seconds (run's own timing line), so that the speed-up of
# each launch from 1 to N threads can be read off; the exports of old and new compared byte for byte.
#
#   python3 scale.py OUT [--threads 1,16] [--progs reduce:24,summatrix:13] [--rounds 1]
#       [--bins old,new] [--extra new:summatrix:13:4+new:summatrix:13:8] [--budget SECONDS]
#       [--variants nh=new:WARPSCOPE_HUGE_PAGES=0+oh=old:WARPSCOPE_HUGE_PAGES=0]
#
# Runs in a folder holding old/ and new/ (and any other --bins: each `warpscope` +
# `libwarpscope_cudart.so`; the first bin is the reference the others' exports are compared with), the
# programs and `libcudart.so.13`; the CUDA tools (ptxas, nvdisasm, cuobjdump) on PATH.
# Binaries alternate per row. Writes OUT/bench.txt (the table), OUT/timing.txt (every
# `warpscope timing` line, under a header per row), OUT/launches.txt (per launch of >= 1,000
# blocks: each bin's wall seconds at each thread count and the speed-up) and OUT/same.txt.
import json, os, re, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
threads = [int(t) for t in opts.get("--threads", "1,16").split(",")]
progs = [(p.split(":")[0], p.split(":")[1:]) for p in opts.get("--progs", "reduce:24,summatrix:13").split(",")]
rounds = int(opts.get("--rounds", "1"))
budget = float(opts.get("--budget", "200"))
bins = opts.get("--bins", "old,new").split(",")
# a bin that is another's binaries under extra environment variables: LABEL=DIR:VAR=VALUE:VAR=VALUE
variants = {}
for v in opts.get("--variants", "").split("+"):
    if v:
        label, rest = v.split("=", 1)
        d, *env = rest.split(":")
        variants[label] = (d, dict(e.split("=", 1) for e in env))
small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"], "summatrix": ["6"]}
start = time.monotonic()
lines, timing = [], []


def say(s):
    print(s, flush=True)
    lines.append(s)
    open(os.path.join(out, "bench.txt"), "w").write("\n".join(lines) + "\n")


def run(b, prog, args, th, export):
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = str(th)
    env["WARPSCOPE_TIMING"] = "1"
    d, extra = variants.get(b, (b, {}))
    env.update(extra)
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(here, d, "warpscope"), "run", "--export", export, "--", "./" + prog] + args,
                         env=env, cwd=here, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    ru = (ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024, ru.ru_minflt, ru.ru_majflt, ru.ru_nvcsw, ru.ru_nivcsw)
    return time.monotonic() - t0, ru, os.waitstatus_to_exitcode(status), err


# per (bin, prog, args, launch index): {threads: [wall s of each round]}
per_launch = {}
kernels = {}
pat = re.compile(r"warpscope timing: (\S+) (\d+) blocks, (\d+) threads: wall ([0-9.]+) s")


def row(b, prog, args, th, rnd):
    if time.monotonic() - start > budget:
        say(f"{b:<4} {prog:<10} {' '.join(args):<9} {th:>4} skipped (time)")
        return
    export = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}.{th}.{rnd}.json")
    wall, (us, ss, rss, minflt, majflt, vcsw, ivcsw), rc, err = run(b, prog, args, th, export)
    t = [l for l in err.splitlines() if l.startswith("warpscope timing:")]
    timing.append(f"== {b} {prog} {' '.join(args)} threads={th} round={rnd}")
    timing.extend(t)
    open(os.path.join(out, "timing.txt"), "w").write("\n".join(timing) + "\n")
    big = []
    for i, l in enumerate(t):
        m = pat.match(l)
        if m and int(m.group(2)) >= 1000:
            key = (b, prog, " ".join(args), i)
            kernels[key] = f"{m.group(1)} ({m.group(2)} blocks)"
            per_launch.setdefault(key, {}).setdefault(th, []).append(float(m.group(4)))
            big.append(f"{i}:{float(m.group(4)):.3f}")
    try:
        count = sum(l.get("thread_instructions", 0) for l in json.load(open(export))["launches"])
        count = f"{count / 1e9:.2f} G"
    except Exception:
        count = "-"
    say(f"{b:<4} {prog:<10} {' '.join(args):<9} {th:>4} {wall:>7.2f} {us:>7.2f} {ss:>6.2f} {rss:>7.0f} {minflt:>8} {majflt:>5} {vcsw:>8} {ivcsw:>7} {count:>9} {rc:>3}  {' '.join(big)}")


say(f"machine: {os.cpu_count()} CPUs, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
say(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
say(f"{'bin':<4} {'program':<10} {'args':<9} {'thr':>4} {'wall s':>7} {'user s':>7} {'sys s':>6} {'RSS MB':>7} {'minflt':>8} {'majflt':>5} {'vol cs':>8} {'invol':>7} {'thr-inst':>9} {'rc':>3}  launches of >= 1000 blocks (index:wall s)")
for b in bins:
    for prog, _ in progs:
        if prog in small:
            run(b, prog, small[prog], 2, os.path.join(out, "warm.json"))
for rnd in range(rounds):
    for prog, args in progs:
        for th in threads:
            for b in (bins if rnd % 2 == 0 else bins[::-1]):
                row(b, prog, args, th, rnd)
for e in opts.get("--extra", "").split("+"):
    if e:
        b, prog, *args, th = e.split(":")
        row(b, prog, args, int(th), 0)
say(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")

# per launch: best wall of each bin at each thread count, and 1 -> N speed-ups
rep = ["launch (>= 1000 blocks)  bin  " + "  ".join(f"{t:>3} thr s" for t in threads) + "  speed-up 1 -> " + str(threads[-1])]
for key in sorted(kernels, key=lambda k: (k[1], k[2], k[3], bins.index(k[0]))):
    w = per_launch[key]
    best = [min(w[t]) if t in w else None for t in threads]
    sp = f"{best[0] / best[-1]:.1f}x" if best[0] and best[-1] else "-"
    rep.append(f"{key[1]} {key[2]} #{key[3]} {kernels[key]}  {key[0]}  " + "  ".join("-" if x is None else f"{x:7.3f}" for x in best) + f"  {sp}")
open(os.path.join(out, "launches.txt"), "w").write("\n".join(rep) + "\n")
print("\n".join(rep))
same = []
ref = bins[0] + "."
for f in sorted(os.listdir(out)):
    if f.startswith(ref) and f.endswith(".json"):
        for b in bins[1:]:
            n = os.path.join(out, b + "." + f[len(ref):])
            if os.path.exists(n):
                a, c = open(os.path.join(out, f), "rb").read(), open(n, "rb").read()
                same.append(("same " if a == c else "DIFF ") + f + " " + os.path.basename(n))
# the same binary's exports at 1 and N threads
for b in bins:
    for prog, args in progs:
        ref = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}.{threads[0]}.0.json")
        for th in threads[1:]:
            o = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}.{th}.0.json")
            if os.path.exists(ref) and os.path.exists(o):
                same.append(("same " if open(ref, "rb").read() == open(o, "rb").read() else "DIFF ") + os.path.basename(ref) + " " + os.path.basename(o))
open(os.path.join(out, "same.txt"), "w").write("\n".join(same) + "\n")
for f in os.listdir(out):
    if f.endswith(".json"):
        os.remove(os.path.join(out, f))
