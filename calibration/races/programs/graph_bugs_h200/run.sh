#!/bin/bash
# Each variant (variants.txt): a plain run, then compute-sanitizer racecheck, memcheck and
# initcheck; four variants at a time. One file per variant under r/; r/gpu.txt names the GPU and
# the sanitizer.
export LD_LIBRARY_PATH=$PWD/../common:$PWD:$LD_LIBRARY_PATH
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p r
one() {
  b=$1
  {
    echo "== $b plain"; timeout 20 ./$b; echo "rc=$?"
    echo "== $b racecheck"; timeout 60 $CS --tool racecheck --racecheck-report all ./$b; echo "rc=$?"
    echo "== $b memcheck"; timeout 60 $CS --tool memcheck --leak-check full ./$b; echo "rc=$?"
    echo "== $b initcheck"; timeout 60 $CS --tool initcheck ./$b; echo "rc=$?"
  } > r/$b.txt 2>&1
}
export -f one
export CS
for v in $(cat variants.txt); do f=${v%%:*}; d=${v#*:}; echo "$f${d:+_${d//,/_}}"; done | xargs -P 4 -I{} bash -c 'one {}'
{ nvidia-smi -L; $CS --version; } > r/gpu.txt 2>&1
