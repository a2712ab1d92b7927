export LD_LIBRARY_PATH=$PWD/../common:$LD_LIBRARY_PATH
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
mkdir -p $OUT/r; chmod +x base/warpscope new/warpscope book/*
uptime > $OUT/r/ab.txt
for i in 1 2 3 4; do for b in base new; do for p in "reduce 24" "transpose 4096" "nbody 4096 1"; do
  l=$(RAYON_NUM_THREADS=1 WARPSCOPE_TIMING=1 ./$b/warpscope run --cudart ./$b/libwarpscope_cudart.so -- ./book/$p 2>&1 >/dev/null | grep "warpscope timing" | sed 's/.*threads: wall \([0-9.]*\) s.*user \([0-9.]*\) s.*/\1/' | tr '\n' ' ')
  echo "round $i $b $p: launch walls $l" >> $OUT/r/ab.txt
done; done; done
uptime >> $OUT/r/ab.txt
