# The ncu metric list bench2-bench6's ncu.sh measure (sourced: sets M). One CSV row per launch and
# metric: branch targets (all, divergent, uniform) and branch instructions; shared loads and
# stores with their wavefronts (pipe-wide and instruction-attributed); global loads and stores,
# their requests and sectors; registers, theoretical occupancy, grid, block, dynamic shared
# memory and executed instructions.
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_branch.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,\
launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum
