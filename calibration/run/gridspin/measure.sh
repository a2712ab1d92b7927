#!/bin/bash
# Runs the programs built by build.sh on a GPU (from a folder holding them and libcudart.so.13):
#   OUT=DIR bash measure.sh
# gridspin calibration: whole programs natively on the GPU (stdout, exit codes), ncu counters of two
# of them, and the texture filtering table. Works in a scratch folder; results in $OUT/results.tgz.
HERE=$(cd "$(dirname "$0")" && pwd)
S=$(mktemp -d)
cp "$HERE"/gridbarrier "$HERE"/lastblock "$HERE"/texwrap "$HERE"/libcudart.so.13 "$S"/
cd "$S"
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
export PATH=$PATH:/usr/local/cuda/bin
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,\
launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,\
smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
mkdir -p r
nvidia-smi --query-gpu=name,driver_version --format=csv > r/gpu.txt 2>&1
ncu --version >> r/gpu.txt 2>&1
# three runs each: the grid barrier's output must not depend on the run
for i in 1 2 3; do
  ./gridbarrier > r/gridbarrier.stdout.$i 2>&1; echo "gridbarrier exit $?" >> r/exit.txt
  ./lastblock > r/lastblock.stdout.$i 2>&1; echo "lastblock exit $?" >> r/exit.txt
done
./texwrap > r/texwrap.stdout 2> r/texwrap.stderr; echo "texwrap exit $?" >> r/exit.txt
ncu --clock-control none --csv --metrics "$M" ./lastblock > r/lastblock.ncu.csv 2>> r/lastblock.ncu.stderr
echo "lastblock ncu exit $?" >> r/exit.txt
ncu --clock-control none --csv --metrics "$M" ./gridbarrier > r/gridbarrier.ncu.csv 2>> r/gridbarrier.ncu.stderr
echo "gridbarrier ncu exit $?" >> r/exit.txt
ncu --clock-control none --csv --metrics "$M" ./gridbarrier > r/gridbarrier.ncu2.csv 2>> r/gridbarrier.ncu.stderr
echo "gridbarrier ncu2 exit $?" >> r/exit.txt
# a grid larger than the GPU holds at once: it never finishes; stopped after 20 s (exit 124)
START=$(date +%s)
timeout 20 ./gridbarrier big > r/big.stdout 2>&1; echo "big exit $? after $(( $(date +%s) - START )) s" >> r/exit.txt
nvidia-smi --query-gpu=name,utilization.gpu --format=csv >> r/gpu.txt 2>&1
cat r/exit.txt
tar czf "$OUT/results.tgz" r
