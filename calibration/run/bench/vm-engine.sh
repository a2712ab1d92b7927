#!/bin/sh
# One-thread engine speed of two builds on the bench programs, alternating old and new:
#   calibration/run/bench/vm-engine.sh OLD_DIR NEW_DIR BUILD_DIR [RUNS]
# OLD_DIR and NEW_DIR hold warpscope and libwarpscope_cudart.so; BUILD_DIR holds nbody, transpose
# and reduce built as scripts/bench-run.sh builds them (nvcc -O2 -arch=sm_90 -lineinfo -cudart
# shared). RAYON_NUM_THREADS=1 and WARPSCOPE_TIMING=1: per run the launches' own wall seconds and
# their user + sys CPU seconds (the per-launch "process:" figures, summed), best of RUNS (default
# 3) each; the thread-instructions are the export's, so the rates are over the launches alone.
OLD=${1:?old}; NEW=${2:?new}; B=${3:?build dir}; RUNS=${4:-3}
cd "$B" || exit 1
echo "machine: $(nproc) CPU cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-8s %-4s %10s %10s %12s %14s %14s\n' program args bin "launch s" "launch CPU" thread-inst "inst/launch s" "inst/CPU s"
for p in "nbody 4096 1" "transpose 4096" "reduce 24"; do
  set -- $p; prog=$1; shift
  for v in old new; do : > "$prog.$v.best"; done
  for r in $(seq "$RUNS"); do
    for v in old new; do
      d=$OLD; [ $v = new ] && d=$NEW
      RAYON_NUM_THREADS=1 WARPSCOPE_TIMING=1 "$d/warpscope" run --cudart "$d/libwarpscope_cudart.so" \
        --export "$prog.$v.json" -- "./$prog" "$@" >/dev/null 2>"$prog.$v.err"
      awk '/warpscope timing: .* threads: wall/ { for (i = 1; i <= NF; i++) { if ($i == "wall") w += $(i+1); if ($i == "user") c += $(i+1); if ($i == "sys") c += $(i+1) } } END { printf "%.4f %.4f\n", w, c }' "$prog.$v.err" >> "$prog.$v.best"
    done
  done
  for v in old new; do
    n=$(python3 -c "import json; print(sum(l.get('thread_instructions', 0) for l in json.load(open('$prog.$v.json'))['launches']))")
    w=$(sort -n "$prog.$v.best" | head -1 | cut -d' ' -f1)
    c=$(sort -k2 -n "$prog.$v.best" | head -1 | cut -d' ' -f2)
    python3 -c "n,w,c=$n,$w,$c; print('%-10s %-8s %-4s %10.3f %10.3f %12.1fM %13.1fM %13.1fM' % ('$prog', '$*', '$v', w, c, n/1e6, n/w/1e6, n/c/1e6))"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
