#!/bin/sh
# On the GPU machine, from this folder (rsq64h, lud, libcudart.so.13):  LD_LIBRARY_PATH=$PWD sh measure.sh OUT
# Writes OUT/rsq64h.delta.xz (MUFU.RSQ64H of every high word of [1, 4), calibration/rsq64h),
# OUT/rsq64h.list (input, seed, rsqrt.approx.f64), OUT/rsq64h.sass (the binary's SASS),
# OUT/pivot_repeat.txt (lud's 10 pivot launches' branch targets, repeated under ncu: is the count
# the same from run to run?) and OUT/log.txt.
OUT=${1:?output folder}
mkdir -p "$OUT"
START=$(date +%s)
el() { echo $(( $(date +%s) - START )); }
LOG="$OUT/log.txt"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$LOG" 2>&1
mkdir -p "$OUT/r" && timeout 60 ./rsq64h "$OUT/r" >> "$LOG" 2>&1; echo "rsq64h exit $? at $(el) s" >> "$LOG"
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read()))" "$OUT/r/rsq64h.delta" "$OUT/rsq64h.delta.xz" >> "$LOG" 2>&1
mv "$OUT/r/rsq64h.list" "$OUT/rsq64h.list"; rm -rf "$OUT/r"
T=$(dirname "$(command -v ptxas 2>/dev/null || command -v ncu)")
if [ -x "$T/cuobjdump" ]; then "$T/cuobjdump" -sass ./rsq64h > "$OUT/rsq64h.sass" 2>> "$LOG"; else cuobjdump -sass ./rsq64h > "$OUT/rsq64h.sass" 2>> "$LOG"; fi
echo "rsq64h done at $(el) s" >> "$LOG"
if [ -x ./lud ]; then
  P="$OUT/pivot_repeat.txt"; : > "$P"
  M2=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
  M=$M2,smsp__sass_branch_targets_threads_uniform.sum,smsp__sass_inst_executed_op_branch.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
  for r in 1 2 3 4 5 6 7 8; do
    if [ $(el) -gt 200 ]; then echo "no time for two-metric run $r" >> "$LOG"; continue; fi
    echo "== two metrics, run $r" >> "$P"
    timeout 40 ncu --clock-control none --csv -k pivot --metrics "$M2" ./lud 2>> "$LOG" | grep 'branch_targets' | awk -F'","' '{print $1"\"", $(NF-2), $NF}' >> "$P"
    echo "two-metric run $r exit at $(el) s" >> "$LOG"
    if [ $r -le 3 ] && [ $(el) -lt 200 ]; then
      echo "== ten metrics, run $r" >> "$P"
      timeout 60 ncu --clock-control none --csv -k pivot --metrics "$M" ./lud 2>> "$LOG" | grep 'branch_targets' | awk -F'","' '{print $1"\"", $(NF-2), $NF}' >> "$P"
      echo "ten-metric run $r exit at $(el) s" >> "$LOG"
    fi
  done
fi
echo "total $(el) s" >> "$LOG"
