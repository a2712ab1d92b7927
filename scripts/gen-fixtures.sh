#!/usr/bin/env bash
# Regenerates the checked-in compiler fixtures of the calibration kernels (calibration/kernels/manifest.tsv)
# with the CUDA wheels' nvcc (./scripts/cuda-wheels.sh), so that the binary can embed them and
# `warpscope tour` needs no CUDA at run time. For every kernel it writes
#   crates/cli/fixtures/<suite>/<name>.ptx   nvcc -arch=sm_90 -O3 -lineinfo -ptx
#   crates/cli/fixtures/<suite>/<name>.sass  nvdisasm -g -c of the cubin built from the same flags
# Each .cu is compiled from its own folder by its bare name, so the line info names `<name>.cu` and the
# fixtures do not depend on where the repository lives. Idempotent: rerun after editing a kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
root=${WARPSCOPE_CUDA_ROOT:-$(./scripts/cuda-wheels.sh)}
export PATH="$root/bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS=$'\t' read -r suite name file kernel _grid _block _dyn _args _what; do
  [ "$suite" = suite ] && continue
  out="$repo/crates/cli/fixtures/$suite"
  mkdir -p "$out"
  dir="$repo/calibration/kernels/$(dirname "$file")"
  base=$(basename "$file")
  (cd "$dir" && nvcc -arch=sm_90 -O3 -lineinfo -ptx -o "$out/$name.ptx" "$base")
  (cd "$dir" && nvcc -arch=sm_90 -O3 -lineinfo -cubin -o "$tmp/$name.cubin" "$base")
  nvdisasm -g -c "$tmp/$name.cubin" >"$out/$name.sass"
  sed -i "s|$repo/||g" "$out/$name.ptx" "$out/$name.sass"
  grep -q "$kernel" "$out/$name.ptx" || { echo "gen-fixtures: kernel $kernel not in $out/$name.ptx" >&2; exit 1; }
  n=$((n + 1))
done <calibration/kernels/manifest.tsv
echo "gen-fixtures: $n kernels -> crates/cli/fixtures/{seeds,classic}/ ($(nvcc --version | tail -1))" >&2
