#!/usr/bin/env bash
# Second device round of calibration/cgcrowd (about 2 minutes on an H200; step timeouts 170 s in
# all). Needs, beside it: cw and pipe (nvcc -O3 -arch=sm_90 -lineinfo), layouts2.txt.
# Writes $OUT/results.tgz.
set -u
cd "$(dirname "$0")"
R=/tmp/cgcrowd_res2; rm -rf $R; mkdir -p $R
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
chmod +x cw pipe
V=$R/versions.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $V 2>&1
t0=$(date +%s); st() { echo "$1 exit $2 at $(( $(date +%s) - t0 )) s" >> $V; }
timeout 5 ./cw layouts2.txt > $R/cw2_native.txt 2>&1; st cw2_native $?
cuobjdump -sass pipe | grep -E "Function|LDGSTS" > $R/sass_pipe.txt 2>&1
MT=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,lts__t_sectors_srcunit_tex_op_read.sum
# the pipeline: each block its own tiles (528 blocks), every block the same tiles (528 blocks: four
# per SM; 132 blocks: one per SM); two runs each, three launches per stage count per run
for cfg in "528 32 0" "528 32 1" "132 32 1"; do
  tag=$(echo $cfg | tr ' ' _)
  timeout 5 ./pipe $cfg >> $R/pipe_native.txt 2>&1; st pipe_native_$tag $?
  for i in 1 2; do
    timeout 8 ncu --clock-control none --csv --page raw --metrics "$MT" ./pipe $cfg > $R/pipe_${tag}_a$i.csv 2> $R/pipe_${tag}_a$i.err; st pipe_${tag}_a$i $?
  done
done
M=smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__sass_data_bytes_mem_shared_op_ldgsts.sum
N=$(wc -l < layouts2.txt); Q=$(( (N + 3) / 4 ))
for p in 0 1 2 3; do
  tail -n +$(( p * Q + 1 )) layouts2.txt | head -n $Q > /tmp/cgc2_l$p.txt
  timeout 25 ncu --clock-control none --csv --page raw --metrics "$M" ./cw /tmp/cgc2_l$p.txt > $R/cw2_raw$p.csv 2> $R/cw2_raw$p.err; st cw2_raw$p $?
done
gzip -9 $R/*.csv
tar czf "$OUT/results.tgz" -C $R .
