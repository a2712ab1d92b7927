#!/bin/sh
cd "$(dirname "$0")"  # the folder holding the built `cont` and libcudart.so.13
export LD_LIBRARY_PATH=$PWD
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
mkdir -p r
./cont > r/cont.stdout 2>&1
ncu --clock-control none --csv --metrics $M ./cont > r/cont.csv 2>> r/cont.stdout
ncu --cache-control none --clock-control none --csv --metrics $M ./cont > r/cont_nocache.csv 2>> r/cont.stdout
tar czf $OUT/r.tgz r
