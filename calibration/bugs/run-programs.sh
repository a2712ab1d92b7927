#!/usr/bin/env bash
# The planted-bug programs (programs/*.cu, whole programs with main()) under NVIDIA compute-sanitizer
# (racecheck, memcheck with --leak-check full, synccheck, initcheck) and under `warpscope run --check`,
# side by side. Writes OUTDIR/programs.tsv (one row per program: the sanitizer's reported problems per
# tool, "clean", or "n/a" without compute-sanitizer; warpscope's findings by kind with E error / W
# warning, and its exit status), OUTDIR/programs.md (the same as a Markdown table) and OUTDIR/programs.log
# (every report).
#   usage: run-programs.sh [OUTDIR]            (default: ./programs-out)
# Environment: NVCC (default: nvcc on PATH, /usr/local/cuda/bin, or the wheels in .venv-cuda),
# WARPSCOPE (default: target/release/warpscope), WARPSCOPE_CUDART (default: libwarpscope_cudart.so next
# to WARPSCOPE), SANITIZER (default: compute-sanitizer on PATH or /usr/local/cuda/bin; absent: the
# sanitizer columns read n/a), CUDART_LIB (a directory holding libcudart.so.13, for linking).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-"$here/programs-out"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
wheels="$repo/.venv-cuda/lib/python3.11/site-packages/nvidia/cu13"
nvcc=${NVCC:-$(command -v nvcc || echo "$wheels/bin/nvcc")}
[ -x "$nvcc" ] || { echo "nvcc not found (set NVCC)" >&2; exit 1; }
ws=${WARPSCOPE:-"$repo/target/release/warpscope"}
[ -x "$ws" ] || { echo "warpscope not found at $ws (cargo build --release -p warpscope; set WARPSCOPE)" >&2; exit 1; }
lib=${WARPSCOPE_CUDART:-"$(dirname "$ws")/libwarpscope_cudart.so"}
san=${SANITIZER:-$(command -v compute-sanitizer || true)}
# nvcc -cudart shared links against libcudart.so: a directory with that link to libcudart.so.13
cudart_dir=${CUDART_LIB:-"$(dirname "$nvcc")/../lib"}
linkdir="$out/link"
mkdir -p "$linkdir"
if [ -e "$cudart_dir/libcudart.so.13" ]; then
  ln -sf "$(cd "$cudart_dir" && pwd)/libcudart.so.13" "$linkdir/libcudart.so"
fi
log="$out/programs.log"
: > "$log"
{
  [ -n "$san" ] && { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$san" --version | head -n 2; }
  "$nvcc" --version | tail -n 2
} >> "$log" 2>&1
count() {
  local tool=$1 file=$2 n=""
  if [ "$tool" = racecheck ]; then
    n=$(grep -Eo 'RACECHECK SUMMARY: [0-9]+ hazard' "$file" | grep -Eo '[0-9]+' | head -n 1)
  fi
  [ -z "$n" ] && n=$(grep -Eo 'ERROR SUMMARY: [0-9]+ error' "$file" | grep -Eo '[0-9]+' | head -n 1)
  case "${n:-?}" in 0) echo clean ;; *) echo "${n:-?}" ;; esac
}
printf 'program\tplanted\tracecheck\tmemcheck\tsynccheck\tinitcheck\twarpscope run --check\n' > "$out/programs.tsv"
for src in "$here"/programs/*.cu; do
  name=$(basename "$src" .cu)
  planted=$(sed -n '1s|^// *||p' "$src" | cut -d: -f1)
  bin="$out/$name"
  if ! "$nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$linkdir" -I"$here/programs" -o "$bin" "$src" >> "$log" 2>&1; then
    printf '%s\t%s\tbuild failed\n' "$name" "$planted" >> "$out/programs.tsv"
    continue
  fi
  row="$name\t$planted"
  for tool in racecheck memcheck synccheck initcheck; do
    if [ -z "$san" ]; then
      row="$row\tn/a"
      continue
    fi
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    tmp=$(mktemp)
    timeout 120 "$san" --tool "$tool" "${extra[@]}" --show-backtrace no "$bin" > "$tmp" 2>&1
    status=$?
    { echo "=== $name $tool (exit $status)"; cat "$tmp"; } >> "$log"
    if [ $status -eq 124 ]; then row="$row\ttimeout"; else row="$row\t$(count "$tool" "$tmp")"; fi
    rm -f "$tmp"
  done
  tmp=$(mktemp)
  timeout 300 "$ws" run --check --cudart "$lib" --export "$out/$name.json" -- "$bin" > "$tmp" 2>&1
  status=$?
  { echo "=== $name warpscope run --check (exit $status)"; cat "$tmp"; } >> "$log"
  rm -f "$tmp"
  found=$(python3 - "$out/$name.json" <<'PY'
import collections, json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"no export ({e.__class__.__name__})")
    sys.exit()
n = collections.Counter()
# the launches' findings, and the program's own (device memory never freed)
found = [f for launch in doc.get("launches", []) for f in launch.get("findings") or []]
for f in found + (doc.get("program_findings") or []):
    sev = {"error": "E", "warning": "W", "note": "N"}.get(f.get("severity"), "?")
    n[(f.get("kind"), sev)] += 1
print(", ".join(f"{k} {s}x{c}" for (k, s), c in sorted(n.items())) or "clean")
PY
)
  row="$row\t$found (exit $status)"
  printf "$row\n" >> "$out/programs.tsv"
done
python3 - "$out/programs.tsv" > "$out/programs.md" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
print("| " + " | ".join(rows[0]) + " |")
print("|" + "---|" * len(rows[0]))
for r in rows[1:]:
    print("| " + " | ".join(r + [""] * (len(rows[0]) - len(r))) + " |")
PY
column -t -s $'\t' "$out/programs.tsv" 2>/dev/null || cat "$out/programs.tsv"
