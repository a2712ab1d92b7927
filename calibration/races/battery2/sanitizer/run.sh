#!/bin/bash
# compute-sanitizer racecheck, synccheck and memcheck on each battery2 kernel (bin/battery2 NAME),
# and a plain run; 12 at a time, 20 s cap each. Packs the logs into $OUT/results.tgz.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
command -v compute-sanitizer > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
R=$(mktemp -d)
nvidia-smi -L > "$R/device.txt" 2>&1
compute-sanitizer --version > "$R/version.txt" 2>&1
one() {
  name=$1 tool=$2
  if [ "$tool" = plain ]; then
    timeout 20 bin/battery2 "$name" > "$R/$name.$tool.txt" 2>&1
  else
    timeout 20 compute-sanitizer --tool "$tool" --error-exitcode 9 bin/battery2 "$name" > "$R/$name.$tool.txt" 2>&1
  fi
  echo "$name $tool rc=$?" >> "$R/rc.txt"
}
export -f one; export R
while read -r n; do for t in plain racecheck synccheck memcheck; do echo "$n $t"; done; done < bin/names.txt \
  | xargs -P 12 -n 2 bash -c 'one "$0" "$1"'
sort -o "$R/rc.txt" "$R/rc.txt"
tar czf "$OUT/results.tgz" -C "$R" .
