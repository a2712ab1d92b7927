#!/usr/bin/env bash
# Third device round of calibration/cgcrowd (about 3.8 minutes on an H200; step timeouts 230 s in
# all). Runs from its own folder, which holds cw (nvcc -O3 -arch=sm_90 -lineinfo cw.cu),
# libcudart.so.13 and layouts3.txt. Writes ./r/.
set -u
cd "$(dirname "$0")"
R=$PWD/r; rm -rf $R; mkdir -p $R
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
chmod +x cw
V=$R/versions.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $V 2>&1
t0=$(date +%s); st() { echo "$1 exit $2 at $(( $(date +%s) - t0 )) s" >> $V; }
timeout 5 ./cw layouts3.txt > $R/cw3_native.txt 2>&1; st cw3_native $?
M=smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__sass_data_bytes_mem_shared_op_ldgsts.sum
# 8 parts of at most 104 launches (about 7 launches a second under ncu), 27 s each
N=$(wc -l < layouts3.txt); Q=$(( (N + 7) / 8 ))
for p in 0 1 2 3 4 5 6 7; do
  tail -n +$(( p * Q + 1 )) layouts3.txt | head -n $Q > $R/l$p.txt
  timeout 27 ncu --clock-control none --csv --page raw --metrics "$M" ./cw $R/l$p.txt > $R/cw3_raw$p.csv 2> $R/cw3_raw$p.err; st cw3_raw$p $?
done
rm -f $R/l?.txt
gzip -9 $R/*.csv
