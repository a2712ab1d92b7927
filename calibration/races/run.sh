#!/bin/sh
# Runs `warpscope check --format json` on every kernel of calibration/races/kernels with the launch
# its `// launch:` line gives, and prints expected kind, the kinds found, and a verdict.
#   calibration/races/run.sh [path/to/warpscope [folder of kernels]]
W=${1:-target/release/warpscope}
DIR=${2:-$(dirname "$0")/kernels}
for f in "$DIR"/*.cu; do
  want=$(sed -n 's|^// expect: ||p' "$f")
  launch=$(sed -n 's|^// launch: ||p' "$f")
  # shellcheck disable=SC2086
  got=$("$W" check "$f" $launch --format json 2>/dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    print("ERROR"); sys.exit()
kinds = sorted({f["kind"] for f in d["findings"] if f["kind"] in ("race", "global_race", "same_value_write", "divergent_barrier", "exit_before_remote_access")})
print(",".join(kinds) or "none")')
  case "$want" in
    none) [ "$got" = none ] && v=ok || v=FALSE_POSITIVE ;;
    *) echo "$got" | grep -qw "$want" && v=ok || v=MISSED ;;
  esac
  printf '%-28s %-18s %-30s %s\n' "$(basename "$f" .cu)" "$want" "$got" "$v"
done
