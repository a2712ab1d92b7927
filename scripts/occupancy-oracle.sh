#!/usr/bin/env bash
# Builds the occupancy oracle (calibration/occupancy/oracle.cpp, a driver of NVIDIA's cuda_occupancy.h)
# with g++ and prints the path of the program on stdout. The header is taken from the CUDA root:
# $WARPSCOPE_CUDA_ROOT (the test command sets it), else the PyPI wheels that scripts/cuda-wheels.sh
# installs. The header is never copied into the repository.
#
#   prog=$(scripts/occupancy-oracle.sh) && echo "P 90 1024 2048 65536 65536 49152 233472 232448 1024 132
#   Q 256 64 0 0 -1 1" | "$prog"          # -> 4 2 16384 1024
#
# The Rust tests (crates/model/tests/occupancy_oracle.rs) run the same program over every preset.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${WARPSCOPE_CUDA_ROOT:-}
if [ -z "$root" ]; then
  root=$(./scripts/cuda-wheels.sh)
fi
header="$root/include/cuda_occupancy.h"
if [ ! -f "$header" ]; then
  echo "occupancy-oracle: $header not found (set WARPSCOPE_CUDA_ROOT to a CUDA root)" >&2
  exit 1
fi
out=target/occupancy-oracle
mkdir -p "$out"
prog="$out/oracle"
src=calibration/occupancy/oracle.cpp
if [ ! -x "$prog" ] || [ "$src" -nt "$prog" ] || [ "$header" -nt "$prog" ]; then
  ${CXX:-g++} -std=c++14 -O2 -Wall -I "$root/include" -o "$prog.tmp.$$" "$src"
  mv "$prog.tmp.$$" "$prog"
fi
echo "$PWD/$prog"
