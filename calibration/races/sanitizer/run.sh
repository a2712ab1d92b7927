#!/bin/bash
# compute-sanitizer (racecheck, synccheck, memcheck, initcheck) on each labelled kernel built as
# a program (bin/NAME, from harness.cu). Takes about 2-4 minutes (4 runs in parallel, 30 s cap each).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=$(mktemp -d)
nvidia-smi -L > "$R/device.txt" 2>&1
compute-sanitizer --version > "$R/version.txt" 2>&1
one() {
  name=$1 tool=$2
  timeout 30 compute-sanitizer --tool "$tool" --error-exitcode 9 "bin/$name" > "$R/$name.$tool.txt" 2>&1
  echo "$name $tool rc=$?" >> "$R/rc.txt"
}
export -f one; export R
for b in bin/*; do n=$(basename "$b"); for t in racecheck synccheck memcheck initcheck; do echo "$n $t"; done; done \
  | xargs -P 4 -n 2 bash -c 'one "$0" "$1"'
sort -o "$R/rc.txt" "$R/rc.txt"
tar czf "$OUT/results.tgz" -C "$R" .
