#!/usr/bin/env bash
# `warpscope run` on whole programs.
#
#   scripts/bench-run.sh [--quick] [--runs N] [--no-build]
#     Book-sized programs of calibration/run/bench/: a 16M-int shared-memory reduction, a 4096x4096
#     float transpose through shared tiles, an all-pairs n-body step of 4096 bodies, a kernel with
#     a 20000-step loop per thread, the sum of two 16384x16384 float matrices by a 2D grid under
#     three block shapes, the stream demo's loop of global loads and stores that ptxas unrolls
#     (memloop, 65536 elements: a quarter of the book's 2^18, 1/16 of its work) (--quick: 1M ints,
#     1024x1024, 1024 bodies, 2000 steps, 2048x2048, 8192 elements). Each runs
#     under `warpscope run` with RAYON_NUM_THREADS=1 and with every thread, and natively when a GPU
#     is present; the table gives per run the wall and CPU seconds (the program and warpscope
#     together), the peak RSS (the largest process: the program under emulation), the PTX thread
#     instructions the emulator counted (the export's `thread_instructions`, summed over launches)
#     and their rate over the wall time; then the launches' own seconds (the emulation: the sum of
#     the per-launch wall times `WARPSCOPE_TIMING=1` prints, without the program's own host work
#     and the process start) and the rate over them, the figure the engine's speed goal names;
#     then the process's CPU seconds over the launches and the rate over those (per core busy: on
#     a shared host, where the wall holds other jobs' time, the figure to compare).
#     Best of N runs (default 1) by wall time. --no-build uses
#     $CARGO_TARGET_DIR/release/warpscope and the programs in $CARGO_TARGET_DIR/bench-run/book as
#     they are (a machine without cargo or nvcc).
#
#   scripts/bench-run.sh --calibration [N] [--check]
#     The programs of calibration/run/ (built by its build.sh), best of N runs (default 3): per
#     program its launches, the wall seconds of the best run and that run's CPU seconds. With
#     --check the hazard checker runs on every launch too.
#
# Needs WARPSCOPE_CUDA_ROOT (the CUDA wheels' root: ./scripts/cuda-wheels.sh prints it) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT (./scripts/cuda-wheels.sh prints it)}"
target=${CARGO_TARGET_DIR:-target}
build=1
for a in "$@"; do
  [ "$a" = --no-build ] && build=0
done
if [ "$build" = 1 ]; then
  # one build of both (the runtime library the programs load too): built apart, each undoes the other
  cargo build --release --quiet -p warpscope -p warpscope-cudart
fi
bin=$(realpath -m "$target/release/warpscope")

calibration() {
  local runs=3 check=()
  for a in "$@"; do
    case $a in
      --check) check=(--check) ;;
      *) runs=$a ;;
    esac
  done
  local out=$target/bench-run
  mkdir -p "$out"
  # rebuild the programs only when their sources are newer
  if [ ! -x "$out/warpsync" ] || [ -n "$(find calibration/run -maxdepth 1 -name '*.cu' -newer "$out/warpsync")" ]; then
    calibration/run/build.sh "$out" >/dev/null
  fi
  echo "machine: $(nproc) CPU cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%-14s %8s %10s %10s\n' program launches "wall s" "CPU s"
  for p in smem divergence divergence_G api warpsync; do
    local best="" cpu="" launches=""
    for _ in $(seq "$runs"); do
      c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
      t0=$(date +%s.%N)
      # the program's own exit status is the run's; a failed check or run still gives a time
      "$bin" run "${check[@]}" --export "$out/$p.json" -- "$out/$p" >/dev/null 2>&1 || true
      t1=$(date +%s.%N)
      c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
      wall=$(echo "$t1 - $t0" | bc -l)
      used=$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)
      if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc -l)" = 1 ]; then
        best=$wall
        cpu=$used
      fi
    done
    launches=$(grep -o '"grid":' "$out/$p.json" | wc -l)
    printf '%-14s %8d %10.3f %10.3f\n' "$p" "$launches" "$best" "$cpu"
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

if [ "${1:-}" = --calibration ]; then
  shift
  calibration "$@"
  exit 0
fi

quick=0
runs=1
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --runs) runs=$2; shift ;;
    --no-build) ;;
    *) echo "usage: scripts/bench-run.sh [--quick] [--runs N] [--no-build] | --calibration [N] [--check]" >&2; exit 2 ;;
  esac
  shift
done

out=$(realpath -m "$target/bench-run/book")
mkdir -p "$out/lib"
ln -sf "$WARPSCOPE_CUDA_ROOT/lib/libcudart.so.13" "$out/lib/libcudart.so"
for p in reduce transpose nbody loop summatrix memloop; do
  src=calibration/run/bench/$p.cu
  if [ "$build" = 1 ] && { [ ! -x "$out/$p" ] || [ "$src" -nt "$out/$p" ]; }; then
    "$WARPSCOPE_CUDA_ROOT/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$out/lib" -o "$out/$p" "$src"
  fi
done

gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
fi

OUT=$out BIN=$bin QUICK=$quick RUNS=$runs GPU=$gpu python3 - <<'PY'
import json, os, re, subprocess, sys, time

out, bin_ = os.environ["OUT"], os.environ["BIN"]
quick, runs, gpu = os.environ["QUICK"] == "1", int(os.environ["RUNS"]), os.environ["GPU"] == "1"
sizes = {
    "reduce": ["20"] if quick else ["24"],
    "transpose": ["1024"] if quick else ["4096"],
    "nbody": ["1024", "1"] if quick else ["4096", "1"],
    "loop": ["2000", "64"] if quick else ["20000", "64"],
    "summatrix": ["11"] if quick else ["14"],
    "memloop": ["8192"] if quick else ["65536"],
}
small = {"reduce": ["12"], "transpose": ["64"], "nbody": ["256", "1"], "loop": ["10", "1"], "summatrix": ["6"], "memloop": ["256"]}
cores = os.cpu_count() or 1


# a launch's line of WARPSCOPE_TIMING=1 (crates/emu/src/timing.rs): its wall seconds, and the
# process's user and system seconds over it
LAUNCH_WALL = re.compile(r" threads: wall ([0-9.]+) s \[")
LAUNCH_CPU = re.compile(r"; process: user ([0-9.]+) s, sys ([0-9.]+) s")


def measure(cmd, env, err=None):
    """Wall seconds, CPU seconds (user + sys of the process and what it waited for), peak RSS (MB,
    the largest of them), the exit status of one run and, with `err` (a file for its stderr), the
    sums of the launches' own wall seconds and of the process's CPU seconds over them that
    WARPSCOPE_TIMING=1 printed (None without)."""
    t0 = time.monotonic()
    with open(err or os.devnull, "wb") as e:
        p = subprocess.Popen(cmd, env=env, cwd=out, stdout=subprocess.DEVNULL, stderr=e)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    launches = launches_cpu = None
    if err:
        text = open(err, errors="replace").read()
        found = LAUNCH_WALL.findall(text)
        launches = sum(float(x) for x in found) if found else None
        used = LAUNCH_CPU.findall(text)
        launches_cpu = sum(float(u) + float(s) for u, s in used) if used else None
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, p.returncode, launches, launches_cpu


def best(cmd, env, err=None):
    return min((measure(cmd, env, err) for _ in range(runs)), key=lambda r: r[0])


def emulated(prog, args, threads, export):
    env = dict(os.environ)
    if threads is None:
        env.pop("RAYON_NUM_THREADS", None)
    else:
        env["RAYON_NUM_THREADS"] = str(threads)
    # each launch's own wall time on stderr (timing only: the counters and exports are the same)
    env["WARPSCOPE_TIMING"] = "1"
    return best([bin_, "run", "--export", export, "--", "./" + prog] + args, env, export + ".err")


def human(x):
    for unit, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= f:
            return f"{x / f:.2f} {unit}"
    return f"{x:.0f}"


model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"machine: {cores} CPU cores, {model}, load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
print(f"sizes: {'quick' if quick else 'book'}; best of {runs} run(s) by wall time")
head = f"{'program':<10} {'args':<11} {'threads':>8} {'wall s':>8} {'CPU s':>8} {'peak RSS MB':>12} {'thread-inst':>12} {'thread-inst/s':>14} {'launch s':>9} {'launch inst/s':>14} {'launch CPU s':>13} {'inst/CPU s':>11} {'status':>7}"
print(head)
print("-" * len(head))
for prog, args in sizes.items():
    # the tool cache (nvdisasm of the program's cubin) filled first, as a second run finds it
    emulated(prog, small[prog], None, os.path.join(out, prog + ".warm.json"))
    count = None
    for threads in (1, None):
        export = os.path.join(out, f"{prog}.{threads or 'all'}.json")
        wall, cpu, rss, rc, own, own_cpu = emulated(prog, args, threads, export)
        try:
            launches = json.load(open(export))["launches"]
            count = sum(l.get("thread_instructions", 0) for l in launches)
        except (OSError, ValueError, KeyError):
            count = None
        shown = "-" if count is None else human(count)
        rate = "-" if count is None else human(count / wall)
        label = "1" if threads == 1 else f"all ({cores})"
        own_s = "-" if own is None else f"{own:.2f}"
        own_rate = "-" if count is None or not own else human(count / own)
        cpu_s = "-" if own_cpu is None else f"{own_cpu:.2f}"
        cpu_rate = "-" if count is None or not own_cpu else human(count / own_cpu)
        print(f"{prog:<10} {' '.join(args):<11} {label:>8} {wall:>8.2f} {cpu:>8.2f} {rss:>12.0f} {shown:>12} {rate:>14} {own_s:>9} {own_rate:>14} {cpu_s:>13} {cpu_rate:>11} {rc:>7}")
    if gpu:
        env = dict(os.environ)
        lib = os.path.join(os.environ["WARPSCOPE_CUDA_ROOT"], "lib")
        env["LD_LIBRARY_PATH"] = lib + ":" + env.get("LD_LIBRARY_PATH", "")
        wall, cpu, rss, rc, _, _ = best(["./" + prog] + args, env)
        rate = "-" if count is None else human(count / wall)
        print(f"{prog:<10} {' '.join(args):<11} {'GPU':>8} {wall:>8.2f} {cpu:>8.2f} {rss:>12.0f} {'-':>12} {rate:>14} {'-':>9} {'-':>14} {'-':>13} {'-':>11} {rc:>7}")
print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
print("thread-inst: PTX thread instructions the emulator executed (all launches); on the GPU row, the same count over the native wall time")
print("launch s: the launches' own wall seconds (WARPSCOPE_TIMING=1), summed; launch inst/s: thread-inst over them")
print("launch CPU s: the process's user + system seconds over the launches (all its threads); inst/CPU s: thread-inst over them,")
print("  the rate per core busy, comparable between a quiet host and a shared one (the goal's per-core figure)")
PY
