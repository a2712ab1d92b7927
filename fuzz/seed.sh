#!/usr/bin/env bash
# Fills the corpus directories of the PTX targets from the one committed copy of their seeds.
# `ptx_parse` and `ptx_lower` start from the same inputs (nvcc's PTX from the repository:
# crates/cli/fixtures, calibration/bugs/ptx, crates/emu/tests/data), kept once in fuzz/seeds/ptx/.
# This script copies them into fuzz/corpus/ptx_parse/ and fuzz/corpus/ptx_lower/ (both ignored by
# git); files already there are kept, so inputs a run added survive. The other targets' seeds are
# committed in fuzz/corpus/TARGET/ as they are.
# Usage: fuzz/seed.sh            (from anywhere; scripts/fuzz-smoke.sh runs it first)
set -euo pipefail
cd "$(dirname "$0")"
seeds=seeds/ptx
[ -d "$seeds" ] || { echo "fuzz/seed.sh: $seeds is missing" >&2; exit 2; }
for t in ptx_parse ptx_lower; do
  mkdir -p "corpus/$t"
  n=0
  for f in "$seeds"/*; do
    dest="corpus/$t/$(basename "$f")"
    if [ ! -e "$dest" ]; then
      cp "$f" "$dest"
      n=$((n + 1))
    fi
  done
  echo "fuzz/seed.sh: corpus/$t: $n seed(s) copied from $seeds"
done
