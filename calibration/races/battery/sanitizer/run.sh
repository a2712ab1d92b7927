#!/bin/bash
# compute-sanitizer racecheck and synccheck on each battery kernel (bin/battery NAME), and a plain
# run; 8 at a time, 20 s cap each. Packs the logs into $OUT/results.tgz.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=$(mktemp -d)
nvidia-smi -L > "$R/device.txt" 2>&1
compute-sanitizer --version > "$R/version.txt" 2>&1
one() {
  name=$1 tool=$2
  if [ "$tool" = plain ]; then
    timeout 20 bin/battery "$name" > "$R/$name.$tool.txt" 2>&1
  else
    timeout 20 compute-sanitizer --tool "$tool" --error-exitcode 9 bin/battery "$name" > "$R/$name.$tool.txt" 2>&1
  fi
  echo "$name $tool rc=$?" >> "$R/rc.txt"
}
export -f one; export R
while read -r n; do for t in plain racecheck synccheck; do echo "$n $t"; done; done < bin/names.txt \
  | xargs -P 8 -n 2 bash -c 'one "$0" "$1"'
sort -o "$R/rc.txt" "$R/rc.txt"
tar czf "$OUT/results.tgz" -C "$R" .
