#!/bin/sh
# Runs sp_calib on one GPU and profiles one launch per kernel under ncu (at most about 230 s):
#   sh measure.sh OUTDIR     (from the folder holding sp_calib, rows.tsv and libcudart.so.13)
# Writes: d.bin (every row's D registers), run.txt, ncu_std.csv (shared-memory and gmma counters
# per kernel), ncu_regex.csv (every gmma/shared metric of five kernels), query.txt (gh100 metrics).
OUT=${1:?output folder}
export LD_LIBRARY_PATH=.:$LD_LIBRARY_PATH
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > "$OUT/run.txt" 2>&1
# a row that faults ends the process: go on after it (at most 8 times)
from=0
for i in 1 2 3 4 5 6 7 8; do
  timeout 30 ./sp_calib rows.tsv "$OUT/d.bin" $from > /tmp/sp_run.txt 2>&1; rc=$?
  cat /tmp/sp_run.txt >> "$OUT/run.txt"; echo "calib exit $rc" >> "$OUT/run.txt"
  f=$(sed -n 's/^FAILED //p' /tmp/sp_run.txt)
  [ -n "$f" ] || break
  from=$((f + 1))
done
timeout 20 ncu --query-metrics --chip gh100 > "$OUT/query.txt" 2>&1
G=$(grep -iE 'gmma' "$OUT/query.txt" | grep -i counter | head -40 | awk '{printf ",%s.sum", $1}')
echo "gmma counters:$G" >> "$OUT/run.txt"
M=smsp__inst_executed.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__sass_inst_executed_op_shared_ld.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,launch__registers_per_thread
for g in 's_f32_f16' 's_f(32_(bf16|tf32|e)|16)' 's_s32'; do
  timeout 50 ncu --clock-control none --csv --page raw -k "regex:^$g" --metrics "$M$G" ./sp_calib rows.tsv /tmp/sp_ncu1.bin first >> "$OUT/ncu_std.csv" 2>> /tmp/sp_std.err
  echo "ncu std $g exit $? $(grep -c '^"' "$OUT/ncu_std.csv")" >> "$OUT/run.txt"
done
timeout 35 ncu --clock-control none --csv --page raw -k 'regex:s_f32_f16_f16_n(8|64)_t00_e0$|s_f32_f16_f16_n64_rs_t00_e0$|s_s32_s8_s8_n32_t00_e0$|s_f32_tf32_tf32_n64_t00_e1$' \
  --metrics 'regex:.*gmma.*,regex:.*shared.*' ./sp_calib rows.tsv /tmp/sp_ncu2.bin first > "$OUT/ncu_regex.csv" 2> /tmp/sp_regex.err
echo "ncu regex exit $? $(grep -c '^"' "$OUT/ncu_regex.csv")" >> "$OUT/run.txt"
tail -c 4000 /tmp/sp_std.err >> "$OUT/run.txt"; tail -c 4000 /tmp/sp_regex.err >> "$OUT/run.txt"
