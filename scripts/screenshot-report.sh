#!/usr/bin/env bash
# Builds the `warpscope run --fix --report` page of a built-in example program,
# calibration/run/smem.cu (the seed's shared-memory transposes, eight kernels), and screenshots it
# in headless Chromium:
#   run-report-overview.png  the program's picture: per-kernel summary and the launches chart
#                            (wavefronts against the ideal, branch efficiency, modelled time);
#   run-report-kernel.png    the page of the kernel setColReadCol alone (--kernel-name): its
#                            annotated source, the bank picture of its worst request and the
#                            fix's before/after.
# Needs: warpscope built (target/release/warpscope, or $WARPSCOPE), a CUDA toolkit it finds
# (WARPSCOPE_CUDA_ROOT, the checkout's .venv-cuda or `warpscope setup`), and chromium on PATH
# (Debian: apt-get install chromium).
# Usage: scripts/screenshot-report.sh [OUT_DIR]   (default: docs/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath "${1:-docs}")
bin=${WARPSCOPE:-${CARGO_TARGET_DIR:-target}/release/warpscope}
command -v chromium >/dev/null || { echo "screenshot-report: chromium not on PATH" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the whole program; then the page of one kernel (headless Chromium does not scroll to a #fragment
# before its screenshot)
"$bin" run --fix --report "$tmp/all.html" calibration/run/smem.cu >"$tmp/all.txt"
"$bin" run --fix --kernel-name setColReadCol --report "$tmp/one.html" calibration/run/smem.cu >"$tmp/one.txt"
shot() { # NAME PAGE WIDTH,HEIGHT
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$tmp/profile-$1" --window-size="$3" --screenshot="$out/$1" \
        "file://$tmp/$2" 2>"$tmp/chromium.log" ||
        { cat "$tmp/chromium.log" >&2; exit 1; }
    echo "wrote $out/$1"
}
shot run-report-overview.png all.html 1400,1000
shot run-report-kernel.png one.html 1950,3950
