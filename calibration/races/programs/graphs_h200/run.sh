#!/bin/bash
# Each variant (variants.txt): a plain run, then compute-sanitizer racecheck and memcheck; four
# variants at a time. One file per variant, gpu.txt names the GPU and the sanitizer.
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
S=$(mktemp -d)
one() {
  b=$1
  {
    echo "== $b plain"; timeout 20 ./$b; echo "rc=$?"
    echo "== $b racecheck"; timeout 40 $CS --tool racecheck --racecheck-report all ./$b; echo "rc=$?"
    echo "== $b memcheck"; timeout 40 $CS --tool memcheck ./$b; echo "rc=$?"
  } > $S/$b.txt 2>&1
}
export -f one
export CS S
for v in $(cat variants.txt); do f=${v%%:*}; d=${v#*:}; echo "$f${d:+_${d//,/_}}"; done | xargs -P 4 -I{} bash -c 'one {}'
nvidia-smi -L > $S/gpu.txt 2>&1; $CS --version >> $S/gpu.txt 2>&1
tar czf $OUT/results.tgz -C $S .
