#!/usr/bin/env bash
# Checks the code's layout rules (ARCHITECTURE.md):
#   - every command module of the CLI (crates/cli/src/cmd/*.rs) has at most 400 lines: it defines
#     flags and renders, the work is in the library crates;
#   - no two files of a crate import each other in a circle (scripts/import-circles.py).
# Prints each offence, and exits 1 if there is any (0 otherwise).
# Usage: scripts/check-layout.sh   (from anywhere; needs bash, coreutils and python3)
set -uo pipefail
cd "$(dirname "$0")/.."

max_cmd_lines=400
bad=0

for f in crates/cli/src/cmd/*.rs; do
    n=$(wc -l < "$f")
    if [ "$n" -gt "$max_cmd_lines" ]; then
        echo "$f:$n: $n lines, over the limit of $max_cmd_lines for a command module (move rendering to a module outside cmd/, domain logic to a library crate)" >&2
        bad=1
    fi
done

if ! python3 scripts/import-circles.py >/dev/null; then
    python3 scripts/import-circles.py >&2
    bad=1
fi

if [ "$bad" -ne 0 ]; then
    echo "check-layout: FAILED" >&2
    exit 1
fi
echo "check-layout: crates/cli/src/cmd/*.rs within $max_cmd_lines lines; no import circles"
