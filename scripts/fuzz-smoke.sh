#!/usr/bin/env bash
# Short fuzzing smoke run: every fuzz target for SECONDS seconds each (default 60), one at a time,
# on stable Rust without sanitizers, starting from the seed corpus (fuzz/corpus/TARGET, the PTX
# targets' filled from fuzz/seeds/ptx/ by fuzz/seed.sh first; new inputs go to a scratch corpus so
# the checked-in seeds stay small). Fails on the first crash, hang
# (-timeout, seconds per input) or out-of-memory (-rss_limit_mb); the crashing input is left in
# fuzz/artifacts/TARGET/.
# Usage: scripts/fuzz-smoke.sh [SECONDS] [TARGET...]
# Needs cargo-fuzz: cargo install cargo-fuzz --locked
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(ptx_parse ptx_lower emu_run bank_trace cli_args)
fi
command -v cargo-fuzz >/dev/null || { echo "fuzz-smoke: cargo-fuzz missing (cargo install cargo-fuzz --locked)" >&2; exit 2; }
./seed.sh
cargo +stable fuzz build -s none
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t"
  echo "== $t: ${secs}s"
  rc=0
  cargo +stable fuzz run -s none "$t" "$scratch/$t" "corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    > "$scratch/$t.log" 2>&1 || rc=$?
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)|ERROR|SUMMARY|panicked|deadly signal" "$scratch/$t.log" || true
  if [ "$rc" -ne 0 ]; then
    tail -40 "$scratch/$t.log" >&2
    echo "fuzz-smoke: $t FAILED (status $rc); the input is in fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
echo "fuzz-smoke: all targets ran ${secs}s without a crash"
