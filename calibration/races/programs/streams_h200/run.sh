#!/bin/bash
# Each stream program variant: a plain run, then compute-sanitizer racecheck and memcheck.
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
S=$(mktemp -d)
for b in streams_race streams_race_EVENT stream_sync stream_sync_NOSYNC stream_legacy stream_legacy_NONBLOCKING stream_legacy_NODEFAULT stream_legacy_PERTHREAD stream_footprints stream_footprints_OVERLAP stream_footprints_PLAIN stream_copy stream_copy_EVENT; do
  {
    echo "== $b plain"; timeout 20 ./$b; echo "rc=$?"
    echo "== $b racecheck"; timeout 25 $CS --tool racecheck --racecheck-report all ./$b; echo "rc=$?"
    echo "== $b memcheck"; timeout 25 $CS --tool memcheck ./$b; echo "rc=$?"
  } > $S/$b.txt 2>&1
done
nvidia-smi -L > $S/gpu.txt 2>&1; $CS --version >> $S/gpu.txt 2>&1
tar czf $OUT/results.tgz -C $S .
