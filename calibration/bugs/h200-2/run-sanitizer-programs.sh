#!/usr/bin/env bash
# Runs each planted-bug program (built elsewhere with nvcc 13.5, -O2 -arch=sm_90 -lineinfo -cudart shared)
# plain and under compute-sanitizer racecheck (--racecheck-report all), memcheck (--leak-check full),
# synccheck and initcheck, 6 at a time. Takes about 2-4 minutes. Results: one archive $OUT/results.tgz.
set -u
here=$(cd "$(dirname "$0")" && pwd)
res=$(mktemp -d)
export LD_LIBRARY_PATH="$here/link:${LD_LIBRARY_PATH:-}"
export PATH="$PATH:/usr/local/cuda/bin"
san=$(command -v compute-sanitizer)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$san" --version; date -u; } > "$res/env.txt" 2>&1
chmod +x "$here"/bin/*
# The carried libcudart.so.13 is the 13.5 wheel's; where the driver refuses it, the device's own
# runtime runs the same binaries.
if "$here/bin/leak" 2>&1 | grep -q 'insufficient'; then
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64:$LD_LIBRARY_PATH"
  echo "runtime: /usr/local/cuda/lib64" >> "$res/env.txt"
  if "$here/bin/leak" 2>&1 | grep -q 'insufficient'; then
    echo "runtime: rebuilt with the device's nvcc" >> "$res/env.txt"
    for s in "$here"/src/*.cu; do
      nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -I"$here/src" -o "$here/bin/$(basename "$s" .cu)" "$s" >> "$res/env.txt" 2>&1
    done
  fi
else
  echo "runtime: carried libcudart.so.13" >> "$res/env.txt"
fi
"$here/bin/leak" >> "$res/env.txt" 2>&1
one() {
  name=$1 tool=$2 res=$3 here=$4 san=$5
  if [ "$tool" = plain ]; then
    timeout 60 "$here/bin/$name" > "$res/$name.$tool.log" 2>&1
  else
    extra=""
    [ "$tool" = racecheck ] && extra="--racecheck-report all"
    [ "$tool" = memcheck ] && extra="--leak-check full"
    timeout 90 "$san" --tool "$tool" $extra --show-backtrace no "$here/bin/$name" > "$res/$name.$tool.log" 2>&1
  fi
  echo "exit $?" >> "$res/$name.$tool.log"
}
export -f one
for n in "$here"/bin/*; do
  for t in plain racecheck memcheck synccheck initcheck; do echo "$(basename "$n") $t"; done
done | xargs -P 6 -n 2 bash -c 'one "$0" "$1" '"'$res' '$here' '$san'"
for f in "$res"/*.log; do
  s=$(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+' "$f" | tr '\n' ' ')
  printf '%s\t%s\t%s\n' "$(basename "$f" .log)" "$(tail -n 1 "$f")" "$s"
done > "$res/summary.tsv"
date -u >> "$res/env.txt"
tar czf "$OUT/results.tgz" -C "$res" .
