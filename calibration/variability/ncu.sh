#!/bin/sh
cd "$(dirname "$0")"  # the folder holding the built `var` and libcudart.so.13
export LD_LIBRARY_PATH=$PWD
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
mkdir -p r
for cfg in "256 1 1" "256 1 0" "256 0 1" "256 0 0" "512 1 1" "512 0 0" "1024 0 0"; do
  set -- $cfg
  ncu --clock-control none --csv --metrics $M ./var $1 $2 $3 > r/var_$1_$2_$3.csv 2>&1
  ncu --clock-control base --csv --metrics $M ./var $1 $2 $3 > r/var_$1_$2_$3_base.csv 2>&1
  ncu --cache-control none --clock-control none --csv --metrics $M ./var $1 $2 $3 > r/var_$1_$2_$3_nocache.csv 2>&1
done
tar czf $OUT/r.tgz r
