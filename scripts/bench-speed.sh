#!/usr/bin/env bash
# The speed benchmark: a 512x512 tiled matrix multiply (16x16 tiles, 1024 blocks of 256 threads, the
# whole grid; crates/cli/fixtures/speed/matmul.ptx) timed three ways, best of N runs (default 3):
#   emulator alone   crates/emu/examples/profile_matmul.rs 512 (no sink; its own timer, compile excluded)
#   analyze          warpscope analyze --section banks,divergence (machine-code widths by ptxas +
#                    nvdisasm, read from the tool cache after the first run; also timed with
#                    WARPSCOPE_NO_CACHE=1, the tools run every time)
#   analyze, all     warpscope analyze, every section (hazards and the fix advisor's trace too)
#   check            warpscope check (hazards: shared and global races)
#   check, shared    warpscope check --no-global-races (shared memory only)
# The goal: check (global races on) within 1.5x of analyze, all (every section, global races on too).
# Builds the release binary and the example first. Prints wall seconds (best), the CPU seconds of
# that run (user + sys) and the load average before and after, so figures from a shared machine can
# be read. Without a CUDA toolkit (WARPSCOPE_CUDA_ROOT, CUDA_HOME, PATH, the wheels) analyze takes the
# checked-in machine code (--sass) and says so.
#   usage: scripts/bench-speed.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet -p warpscope --bin warpscope
cargo build --release --quiet -p warpscope-emu --example profile_matmul
bin=target/release/warpscope
fixture=crates/cli/fixtures/speed/matmul
launch=("$fixture.ptx" --grid 32,32 --block 16,16 --arg buf:1048576 --arg buf:1048576 --arg buf:1048576:zero --arg i32:512)
sass=()
probe=$("$bin" analyze "${launch[@]}" --blocks 1 --format json 2>/dev/null || true)
if ! grep -q '"widths": "machine code"' <<<"$probe"; then
  sass=(--sass "$fixture.sass")
  echo "bench-speed: no ptxas/nvdisasm found; analyze uses the checked-in machine code ($fixture.sass)" >&2
fi
echo "machine: $(nproc) CPU cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# best_of NAME CMD...: runs CMD N times, keeps the fastest wall time and that run's CPU time.
best_of() {
  local name=$1
  shift
  local best="" cpu=""
  for _ in $(seq "$runs"); do
    local t0 t1 c0 c1 wall used
    c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    wall=$(echo "$t1 - $t0" | bc -l)
    used=$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc -l)" = 1 ]; then
      best=$wall
      cpu=$used
    fi
  done
  printf '%-18s %7.3f s wall (best of %d)  %7.3f s CPU\n' "$name" "$best" "$runs" "$cpu"
  last_wall=$best
}

emu_best=""
for _ in $(seq "$runs"); do
  # "n = 512: 312.5ms, ..." (Duration's Debug form: s, ms or µs)
  t=$(target/release/examples/profile_matmul 512 2>&1 | sed -n 's/^n = 512: \([0-9.]*\)\([mµ]*s\),.*/\1 \2/p')
  s=$(echo "$t" | awk '{v = $1; if ($2 == "ms") v /= 1000; else if ($2 == "µs") v /= 1e6; printf "%.6f", v}')
  if [ -z "$emu_best" ] || [ "$(echo "$s < $emu_best" | bc -l)" = 1 ]; then emu_best=$s; fi
done
printf '%-18s %7.3f s wall (best of %d; the example times the run, compile excluded)\n' "emulator alone" "$emu_best" "$runs"
"$bin" analyze "${launch[@]}" "${sass[@]}" --blocks 1 >/dev/null # fills the tool cache
best_of "analyze" "$bin" analyze "${launch[@]}" "${sass[@]}" --section banks,divergence
WARPSCOPE_NO_CACHE=1 best_of "analyze, no cache" "$bin" analyze "${launch[@]}" "${sass[@]}" --section banks,divergence
best_of "analyze, all" "$bin" analyze "${launch[@]}" "${sass[@]}"
all_wall=$last_wall
best_of "check" "$bin" check "${launch[@]}"
check_wall=$last_wall
best_of "check, shared" "$bin" check "${launch[@]}" --no-global-races
printf 'check / analyze, all: %.2f (goal: at most 1.5)\n' "$(echo "$check_wall / $all_wall" | bc -l)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
