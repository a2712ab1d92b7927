#!/bin/sh
# sum1d and gridstride (calibration/run/bench/) under warpscope run: main before the moving-pointer
# closed form (old/) and after (new/), per-launch timing at 1 and 16 threads; exports compared.
#   sh measure.sh OUT
cd "$(dirname "$0")"
OUT=${1:?out}
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
L=$PWD
T=$(mktemp -d)
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do mkdir -p $T/$v; for f in warpscope libwarpscope_cudart.so; do unxz $v/$f.xz > $T/$v/$f; done; chmod +x $T/$v/warpscope; done
START=$(date +%s)
# SMALL=1: the same runs at small sizes (a check of this script)
B="14 14"; M="13 13"; G="24 32 256 8192 4096"; G7="20 16 256 7 4096"
[ -n "$SMALL" ] && { B="10 10"; M="9 9"; G="16 4 64 64 64"; G7="16 4 64 7 64"; }
lscpu | grep -E "^CPU\(s\)|Model name" > $OUT/cpu.txt
S=$OUT/summary.txt
run() { # version threads tag program args...
  v=$1; t=$2; tag=$3; shift 3
  # within the device's 5 minutes
  if [ $(( $(date +%s) - START )) -gt 230 ]; then echo "$v $tag threads $t: skipped (time)" >> $S; return; fi
  timeout 150 /usr/bin/time -f "%e wall %U user %S sys %M KB" -o $T/t.txt env LD_LIBRARY_PATH=$L RAYON_NUM_THREADS=$t WARPSCOPE_TIMING=1 \
    $T/$v/warpscope run --cudart $T/$v/libwarpscope_cudart.so --export $T/$v.$tag.$t.json "$@" > $T/out.txt 2>&1
  echo "$v $tag threads $t ($*): rc $? $(cat $T/t.txt | tail -1) $(grep -c 'wrong' $T/out.txt) results, $(grep -c ': 0 wrong' $T/out.txt) right" >> $S
  grep "warpscope timing" $T/out.txt | cut -c1-220 >> $S
}
same() { cmp -s $T/$1.json $T/$2.json && echo "same $1 $2" >> $S || echo "DIFF $1 $2" >> $S; }
run old 16 book ./sum1d $B; run new 16 book ./sum1d $B; same old.book.16 new.book.16
run old 16 gs ./gridstride $G; run new 16 gs ./gridstride $G; same old.gs.16 new.gs.16
run old 16 gs7 ./gridstride $G7; run new 16 gs7 ./gridstride $G7; same old.gs7.16 new.gs7.16
run old 1 gs ./gridstride $G; run new 1 gs ./gridstride $G; same old.gs.1 new.gs.1
run old 1 s13 ./sum1d $M; run new 1 s13 ./sum1d $M; same old.s13.1 new.s13.1
run new 1 book ./sum1d $B; same new.book.1 new.book.16
( LD_LIBRARY_PATH=$L /usr/bin/time -f "native sum1d $B: %e wall %M KB" ./sum1d $B ) >> $S 2>&1
rm -rf $T
