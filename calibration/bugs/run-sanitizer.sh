#!/usr/bin/env bash
# Runs NVIDIA compute-sanitizer (racecheck, synccheck, initcheck, memcheck) on every kernel of the
# planted-bug suite (manifest.tsv) on a machine with a GPU and writes a verdict table.
# Usage: run-sanitizer.sh [OUTDIR]   (default: ./sanitizer-out). Needs nvcc and compute-sanitizer on PATH
# (or under /usr/local/cuda/bin). Writes OUTDIR/verdicts.tsv (one row per kernel, one column per tool:
# "clean", "N" problems reported, "timeout", or "fail:<status>") and OUTDIR/sanitizer.log (every report).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/sanitizer-out"}
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
command -v nvcc >/dev/null || { echo "nvcc not found" >&2; exit 1; }
command -v compute-sanitizer >/dev/null || { echo "compute-sanitizer not found" >&2; exit 1; }
bin="$out/harness"
# -lineinfo so that reports name source lines; -O3 like the PTX fixtures.
nvcc -arch=sm_90 -O3 -lineinfo -I"$here/kernels" "$here/harness.cu" -o "$bin" || exit 1
log="$out/sanitizer.log"
: > "$log"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -n 2
  compute-sanitizer --version | head -n 2
} >> "$log" 2>&1
printf 'kernel\texpected\tracecheck\tsynccheck\tinitcheck\tmemcheck\n' > "$out/verdicts.tsv"
# Number of problems a tool reported, from its summary line.
count() {
  local tool=$1 file=$2 n
  if [ "$tool" = racecheck ]; then
    n=$(grep -Eo 'RACECHECK SUMMARY: [0-9]+ hazard' "$file" | grep -Eo '[0-9]+' | head -n 1)
  fi
  [ -z "${n:-}" ] && n=$(grep -Eo 'ERROR SUMMARY: [0-9]+ error' "$file" | grep -Eo '[0-9]+' | head -n 1)
  echo "${n:-?}"
}
while IFS=$'\t' read -r kernel grid block dyn n expected what; do
  case "$kernel" in ''|'#'*) continue ;; esac
  row="$kernel\t$expected"
  for tool in racecheck synccheck initcheck memcheck; do
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    tmp=$(mktemp)
    timeout 60 compute-sanitizer --tool "$tool" "${extra[@]}" --show-backtrace no \
      "$bin" "$kernel" "$grid" "$block" "$dyn" "$n" > "$tmp" 2>&1
    status=$?
    {
      echo "=== $kernel $tool (exit $status)"
      cat "$tmp"
    } >> "$log"
    if [ $status -eq 124 ]; then
      verdict=timeout
    else
      c=$(count "$tool" "$tmp")
      if [ "$c" = 0 ]; then verdict=clean; else verdict=$c; fi
    fi
    row="$row\t$verdict"
    rm -f "$tmp"
  done
  printf "$row\n" >> "$out/verdicts.tsv"
done < "$here/manifest.tsv"
column -t -s $'\t' "$out/verdicts.tsv"
