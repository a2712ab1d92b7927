export LD_LIBRARY_PATH=$PWD/../common:$LD_LIBRARY_PATH
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
mkdir -p $OUT/r; chmod +x warpscope summatrix
(nproc; uptime; df -h /var/tmp /tmp) > $OUT/r/machine.txt 2>&1
for k in 1 2; do
 python3 meas.py "./summatrix 14" >> $OUT/r/spill.txt 2>&1
 for S in 1 0; do echo "== spill $S run $k" >> $OUT/r/spill.txt; WARPSCOPE_TIMING=1 python3 meas.py "./warpscope run --cudart ./libwarpscope_cudart.so --export $OUT/r/e$S.json -- ./summatrix 14" WARPSCOPE_SPILL=$S >> $OUT/r/spill.txt 2>&1; done
done
cmp $OUT/r/e0.json $OUT/r/e1.json && echo "exports identical" >> $OUT/r/spill.txt
gzip $OUT/r/*.json
