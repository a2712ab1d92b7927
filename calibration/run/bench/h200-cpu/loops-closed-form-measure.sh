#!/bin/sh
# memloop (calibration/run/bench/memloop.cu) under warpscope run: main before the counted-loop
# closed form (old/) and after (new/), per-launch timing; exports compared. sh measure.sh OUT
cd "$(dirname "$0")"
OUT=${1:?out}
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
L=$PWD
lscpu | grep -E "^CPU\(s\)|Model name" > $OUT/cpu.txt
run() { # bin elements threads
  /usr/bin/time -f "%e wall %U user %S sys %M KB" -o $OUT/t.txt env LD_LIBRARY_PATH=$L RAYON_NUM_THREADS=$3 WARPSCOPE_TIMING=1 \
    $1/warpscope run --cudart $L/$1/libwarpscope_cudart.so --export $OUT/$1.$2.$3.json ./memloop $2 > $OUT/$1.$2.$3.out 2>&1
  echo "$1 memloop $2 threads $3: $(cat $OUT/t.txt) $(grep -c timing $OUT/$1.$2.$3.out) launches $(grep -c PASSED $OUT/$1.$2.$3.out) passed" >> $OUT/summary.txt
  grep timing $OUT/$1.$2.$3.out | cut -c1-170 >> $OUT/summary.txt
}
run old 65536 1; run new 65536 1
run old 65536 16; run new 65536 16
run new 262144 16
run new 262144 2
for t in 1 16; do cmp -s $OUT/old.65536.$t.json $OUT/new.65536.$t.json && echo "same 65536 $t" >> $OUT/summary.txt || echo "DIFF 65536 $t" >> $OUT/summary.txt; done
cmp -s $OUT/new.262144.16.json $OUT/new.262144.2.json && echo "same 262144 16/2 threads" >> $OUT/summary.txt || echo "DIFF 262144 16/2" >> $OUT/summary.txt
( LD_LIBRARY_PATH=$L /usr/bin/time -f "native %e wall %M KB" ./memloop 262144 ) >> $OUT/summary.txt 2>&1
rm -f $OUT/*.json
