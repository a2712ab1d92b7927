# warpscope run, main's binary (old/) against this branch's (new/), on the bench programs: wall, user,
# sys, peak RSS, thread-instructions and their rate, and the launches' own times (stderr lines
# `launch N ... S s`, printed for launches over 1 s).
#
#   python3 compare.py OUT [--threads 1,4,8,16] [--bins old,new] [--budget SECONDS] [--quick]
#       [--progs reduce:24,transpose:4096,summatrix:13] [--perf new:summatrix:13:16]
#       [--extra new:summatrix:14:16] [--repeat loop:20000:64:1:3]
#
# Runs in a folder holding old/ and new/ (each `warpscope` + `libwarpscope_cudart.so`), the
# programs, `libcudart.so.13` and `cuda/bin/{ptxas,nvdisasm,cuobjdump}` (WARPSCOPE_CUDA_ROOT);
# binaries alternate per row so that the machine's drift falls on both. Rows past the budget are
# skipped (and say so). --perf records the named run with `perf record -g` when perf is there;
# --extra adds rows after it (BIN:PROGRAM:ARGS...:THREADS, `+` between rows); --repeat runs
# PROGRAM:ARGS...:THREADS:ROUNDS with old and new alternating, before everything else.
import json, os, subprocess, sys, time, re
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
quick = "--quick" in sys.argv
threads = [int(t) for t in opts.get("--threads", "1,4,8,16").split(",")]
bins = opts.get("--bins", "old,new").split(",")
budget = float(opts.get("--budget", "220"))
default = "reduce:20,transpose:1024,summatrix:11" if quick else "reduce:24,transpose:4096,nbody:4096:1,loop:20000:64,summatrix:13"
progs = [(p.split(":")[0], p.split(":")[1:]) for p in opts.get("--progs", default).split(",")]
plan = [(b, prog, args, th) for prog, args in progs for th in threads for b in bins]
small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"], "summatrix": ["6"]}
env0 = dict(os.environ)
if os.path.isdir(os.path.join(here, "cuda")):
    env0["WARPSCOPE_CUDA_ROOT"] = os.path.join(here, "cuda")
start = time.monotonic()
def run(b, prog, args, threads, export, pre=()):
    env = dict(env0)
    env["RAYON_NUM_THREADS"] = str(threads)
    t0 = time.monotonic()
    p = subprocess.Popen(list(pre) + [os.path.join(here, b, "warpscope"), "run", "--export", export, "--", "./" + prog] + args,
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
    open(os.path.join(out, "bench.txt"), "w").write("\n".join(lines) + "\n")
say(f"machine: {os.cpu_count()} CPUs, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
say(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
say(f"{'bin':<4} {'program':<10} {'args':<9} {'thr':>4} {'wall s':>7} {'user s':>7} {'sys s':>6} {'RSS MB':>7} {'thr-inst':>9} {'inst/s':>9} {'inst/CPU-s':>10} {'rc':>3}  launches over 1 s")
warm = {prog for prog, _ in progs} | {opts.get("--repeat", "x").split(":")[0]} | {e.split(":")[1] for e in opts.get("--extra", "").split("+") if e}
for b in bins:
    for prog in sorted(warm & set(small)):
        run(b, prog, small[prog], 2, os.path.join(out, "warm.json"))
def row(b, prog, args, th):
    if time.monotonic() - start > budget:
        say(f"{b:<4} {prog:<10} {' '.join(args):<9} {th:>4} skipped (time)")
        return
    export = os.path.join(out, f"{b}.{prog}.{'_'.join(args)}.{th}.json")
    wall, us, ss, rss, rc, err = run(b, prog, args, th, export)
    try:
        count = sum(l.get("thread_instructions", 0) for l in json.load(open(export))["launches"])
    except Exception:
        count = None
    launches = " ".join(m.group(1) + ":" + m.group(2) for m in re.finditer(r"launch (\d+) .*? ([0-9.]+) s,", err))
    say(f"{b:<4} {prog:<10} {' '.join(args):<9} {th:>4} {wall:>7.2f} {us:>7.2f} {ss:>6.2f} {rss:>7.0f} {('-' if count is None else human(count)):>9} {('-' if count is None else human(count / wall)):>9} {('-' if count is None else human(count / (us + ss))):>10} {rc:>3}  {launches}")
if "--repeat" in opts:
    prog, *args, th, rounds = opts["--repeat"].split(":")
    for _ in range(int(rounds)):
        for b in bins:
            row(b, prog, args, int(th))
for b, prog, args, th in plan:
    row(b, prog, args, th)
say(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
if "--perf" in opts and time.monotonic() - start < budget:
    b, prog, *args, th = opts["--perf"].split(":")
    data = os.path.join(out, "perf.data")
    try:
        run(b, prog, args, int(th), os.path.join(out, "perf.json"),
            pre=["perf", "record", "-g", "-F", "499", "-o", data, "--"])
        rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--stdio", "-g", "none", "--percent-limit", "0.3"],
                             capture_output=True, text=True, timeout=120).stdout
        open(os.path.join(out, "perf.txt"), "w").write(rep[:400000])
        os.remove(data)
    except Exception as e:
        open(os.path.join(out, "perf.txt"), "w").write(f"perf failed: {e}\n")
for e in opts.get("--extra", "").split("+"):
    if e:
        b, prog, *args, th = e.split(":")
        row(b, prog, args, int(th))
