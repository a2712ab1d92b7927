#!/bin/sh
# Dynamic parallelism on the GPU: each program natively (stdout, exit status), under ncu with the
# counters of calibration/run/ncu.sh (CSV, one row per profiled launch), ncu's plain listing of the
# kernels it profiles, compute-sanitizer once. Run from this folder: sh measure.sh OUTDIR
OUT=${1:?output folder}
W=$OUT/w; mkdir -p "$W"
export LD_LIBRARY_PATH=$(pwd):$LD_LIBRARY_PATH
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,\
launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,\
smsp__sass_inst_executed_op_ldsm.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,\
smsp__sass_inst_executed_op_shared_stsm.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,\
smsp__sass_inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed.sum,smsp__warps_launched.sum,sm__ctas_launched.sum
S=$OUT/summary.txt
start=$(date +%s)
{
nvidia-smi --query-gpu=name,driver_version --format=csv
ncu --version | tail -1
} > "$S" 2>&1
# native runs (dp_hello three times: is the printf order stable?)
for p in dp_hello dp_reduce dp_tail dp_streams dp_multi dp_limits; do
  timeout 30 ./$p > "$W/$p.stdout" 2> "$W/$p.stderr"; echo "$p exit $?" >> "$S"
done
for r in 2 3; do timeout 20 ./dp_hello > "$W/dp_hello.run$r.stdout" 2>&1; echo "dp_hello run$r exit $? same-as-run1: $(cmp -s "$W/dp_hello.stdout" "$W/dp_hello.run$r.stdout" && echo yes || echo no)" >> "$S"; done
echo "native done at $(( $(date +%s) - start )) s" >> "$S"
# which kernels does ncu profile? plain listing with a cheap metric set
timeout 40 ncu --clock-control none --metrics launch__grid_size,launch__block_size,smsp__sass_inst_executed.sum ./dp_multi > "$W/dp_multi.ncu.list" 2>&1; echo "dp_multi ncu list exit $?" >> "$S"
timeout 40 ncu --clock-control none --print-summary per-kernel --metrics launch__grid_size ./dp_hello > "$W/dp_hello.ncu.summary" 2>&1; echo "dp_hello ncu summary exit $?" >> "$S"
echo "listing done at $(( $(date +%s) - start )) s" >> "$S"
# the counters (launch count capped: if ncu profiles device-launched grids there are hundreds)
for p in dp_hello dp_multi dp_streams dp_tail dp_reduce; do
  timeout 35 ncu --clock-control none --csv -c 24 --metrics "$M" ./$p > "$W/$p.ncu.csv" 2> "$W/$p.ncu.stderr"
  echo "$p ncu exit $? rows $(grep -c '^"' "$W/$p.ncu.csv") at $(( $(date +%s) - start )) s" >> "$S"
done
timeout 30 compute-sanitizer ./dp_multi > "$W/dp_multi.sanitizer" 2>&1; echo "dp_multi sanitizer exit $?" >> "$S"
echo "all done at $(( $(date +%s) - start )) s" >> "$S"
tar -C "$W" -cf "$OUT/results.tar" . && rm -rf "$W"
cat "$S"
