#!/usr/bin/env bash
# Device round of calibration/cgcrowd (about 2.5 minutes on an H200; every step has its own
# timeout, 227 s at most in all). Needs, beside it: cw, pipe (nvcc -O3 -arch=sm_90 -lineinfo),
# hopper_run2 (calibration/hopper/host/hopper_run2.cu, nvcc -std=c++17 -O2 -arch=sm_90a),
# triton2/ (calibration/hopper/triton2: launches.tsv and the cubins), layouts.txt.
# Writes $OUT/results.tgz.
set -u
cd "$(dirname "$0")"
R=/tmp/cgcrowd_res; rm -rf $R; mkdir -p $R
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
chmod +x cw pipe hopper_run2
V=$R/versions.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $V 2>&1
t0=$(date +%s); st() { echo "$1 exit $2 at $(( $(date +%s) - t0 )) s" >> $V; }
timeout 5 ./cw layouts.txt > $R/cw_native.txt 2>&1; st cw_native $?
timeout 5 ./pipe 528 32 0 > $R/pipe_native.txt 2>&1; st pipe_native $?
timeout 5 ./pipe 528 32 1 >> $R/pipe_native.txt 2>&1; st pipe_native_same $?
timeout 10 ./hopper_run2 triton2 /tmp/cgc_t.bin > $R/triton_native.txt 2>&1; st triton_native $?
cuobjdump -sass cw > $R/sass_cw.txt 2>&1; cuobjdump -sass pipe > $R/sass_pipe.txt 2>&1
K='regex:^(mm_ptr|mm_splitk|attn_causal)$'
MT=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,\
smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,smsp__sass_inst_executed_op_global_ld.sum,\
lts__t_sectors_srcunit_tex_op_read.sum
# the Triton kernels with cp.async.cg pipelines: metric list (A) 3 runs, with the source counters'
# instrumentation (B) 2 runs, the per-instruction source page once
for i in 1 2 3; do
  timeout 10 ncu --clock-control none --csv --page raw -k "$K" --metrics "$MT" ./hopper_run2 triton2 /tmp/cgc_t.bin > $R/triton_a$i.csv 2> $R/triton_a$i.err; st triton_a$i $?
done
for i in 1 2; do
  timeout 12 ncu --clock-control none --csv --page raw -k "$K" --section SourceCounters --metrics "$MT" ./hopper_run2 triton2 /tmp/cgc_t.bin > $R/triton_b$i.csv 2> $R/triton_b$i.err; st triton_b$i $?
done
timeout 14 ncu --clock-control none --csv -k "$K" --section SourceCounters --page source --print-source sass ./hopper_run2 triton2 /tmp/cgc_t.bin > $R/triton_src.csv 2> $R/triton_src.err; st triton_src $?
# own multi-stage pipeline, 528 blocks x 32 tiles, stages 1-4, three launches each per run; each
# block its own tiles (s0), every block the same tiles (s1)
for s in 0 1; do
  for i in 1 2; do
    timeout 8 ncu --clock-control none --csv --page raw --metrics "$MT" ./pipe 528 32 $s > $R/pipe_s${s}_a$i.csv 2> $R/pipe_s${s}_a$i.err; st pipe_s${s}_a$i $?
  done
  timeout 9 ncu --clock-control none --csv --page raw --section SourceCounters --metrics "$MT" ./pipe 528 32 $s > $R/pipe_s${s}_b1.csv 2> $R/pipe_s${s}_b1.err; st pipe_s${s}_b1 $?
done
# the battery: one copy per launch, raw page, 
M=smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,sm__sass_data_bytes_mem_shared_op_ldgsts.sum
# the battery: one copy per launch, raw page, in four parts (a part cut by its timeout loses only itself)
N=$(wc -l < layouts.txt); Q=$(( (N + 3) / 4 ))
for p in 0 1 2 3; do
  tail -n +$(( p * Q + 1 )) layouts.txt | head -n $Q > /tmp/cgc_l$p.txt
  timeout 21 ncu --clock-control none --csv --page raw --metrics "$M" ./cw /tmp/cgc_l$p.txt > $R/cw_raw$p.csv 2> $R/cw_raw$p.err; st cw_raw$p $?
done
gzip -9 $R/*.csv
tar czf "$OUT/results.tgz" -C $R .
