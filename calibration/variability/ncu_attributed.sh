#!/bin/sh
# The unit-level shared wavefronts beside the wavefronts ncu attributes to the instructions
# (h100/*_attributed.csv). Run from a folder holding the built `cont` (contention.cu), `var`
# (tiled.cu) and the wheel's libcudart.so.13: OUT=somewhere sh ncu_attributed.sh
export LD_LIBRARY_PATH=$PWD
S=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
ncu --clock-control none --csv --metrics $S ./cont > "$OUT/contention_attributed.csv" 2>&1
for n in 256 1024; do
  ncu --clock-control none --csv --metrics $S ./var $n 0 0 > "$OUT/var_${n}_attributed.csv" 2>&1
done
