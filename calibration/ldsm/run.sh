#!/usr/bin/env bash
# Measures every pattern of a patterns table (gen_patterns.py) on the local GPU under Nsight Compute:
# ldmatrix/stmatrix rows with the shared load/store and LDSM/STSM counters, cp.async rows with the
# LDGSTS counters. Metric names are probed first (a name this ncu lacks is left out and listed).
# Usage: [NCHUNKS=n] calibration/ldsm/run.sh PATTERNS.tsv OUTDIR [BUDGET_SECONDS]
# Writes OUTDIR/{device.txt,sass.txt,metrics_query.txt,metrics_used.txt,ncu_mat.csv,ncu_cp.csv,
# ids_mat.tsv,ids_cp.tsv,log.txt}; then
#   python3 calibration/ldsm/collect.py OUTDIR PATTERNS.tsv > calibration/ldsm/measured.tsv
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pat=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
budget=${3:-400}
start=$(date +%s)
log() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$out/log.txt"; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; nvcc --version | tail -2; "$NCU" --version | tail -1; } > "$out/device.txt" 2>&1
cat "$out/device.txt"
bin=/tmp/ldsm_calib
nvcc -O3 -arch=sm_90 -lineinfo -o "$bin" "$here/ldsm_calib.cu" || { log "nvcc failed"; exit 1; }
cuobjdump -sass "$bin" | grep -E "Function|LDSM|STSM|LDGSTS|LDS|STS" > "$out/sass.txt"
log "compiled; $(grep -c -E 'LDSM|STSM|LDGSTS' "$out/sass.txt") LDSM/STSM/LDGSTS in SASS"
"$NCU" --query-metrics > /tmp/metrics_all.txt 2>&1
grep -iE 'ldsm|stsm|ldgsts' /tmp/metrics_all.txt > "$out/metrics_query.txt"
log "query: $(wc -l < "$out/metrics_query.txt") metric names mention ldsm|stsm|ldgsts"

# one ldsm and one ldgsts row to probe metric names with
head -1 "$pat" > /tmp/probe.tsv
grep -P '^\d+\tldsm\tx4\t' "$pat" | head -1 >> /tmp/probe.tsv
grep -P '^\d+\tldgsts\tcg16\t' "$pat" | head -1 >> /tmp/probe.tsv
probe() {  # prints the names ncu accepts: all at once, dropping each name ncu reports as unknown
  local left="$*" try
  for try in $(seq 1 30); do
    [ -n "$left" ] || return
    "$NCU" --csv --page raw --clock-control none --metrics "$(echo $left | tr ' ' ',')" "$bin" /tmp/probe.tsv 0 1 \
      /tmp/probe_ids.tsv > /tmp/probe.csv 2>&1
    bad=$(for m in $left; do grep -q -- "${m%.sum}" <(grep -iE 'error|fail|not found|invalid' /tmp/probe.csv) && echo "$m"; done | head -1)
    if [ -z "$bad" ]; then
      if grep -qiE '==ERROR==' /tmp/probe.csv; then
        echo "probe: unexplained error: $(grep -m2 -i error /tmp/probe.csv)" >> "$out/log.txt"; return
      fi
      echo $left; return
    fi
    echo "probe: $bad not available: $(grep -m1 -iE 'error|fail' /tmp/probe.csv)" >> "$out/log.txt"
    left=$(for m in $left; do [ "$m" = "$bad" ] || echo "$m"; done)
  done
}
base="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum"
matc=""
for s in ldsm stsm; do
  matc="$matc smsp__sass_inst_executed_op_$s.sum smsp__sass_inst_executed_op_shared_$s.sum smsp__inst_executed_op_$s.sum"
  matc="$matc l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$s.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$s.sum"
  matc="$matc sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_$s.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_$s.sum"
  matc="$matc sm__sass_data_bytes_mem_shared_op_$s.sum"
done
matc="$matc sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
cpc="sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum smsp__inst_executed_op_ldgsts.sum smsp__sass_inst_executed_op_ldgsts.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum sm__sass_data_bytes_mem_shared_op_ldgsts.sum l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"
mat_metrics=$(echo $base $(probe $matc) | tr ' ' ',')
cp_metrics=$(echo $base $(probe $cpc) | tr ' ' ',')
{ echo "mat: $mat_metrics"; echo "cp: $cp_metrics"; } > "$out/metrics_used.txt"
log "probed; $(cat "$out/metrics_used.txt")"

head -1 "$pat" > /tmp/mat.tsv; grep -P '^\d+\t(ldsm|stsm)\t' "$pat" >> /tmp/mat.tsv
head -1 "$pat" > /tmp/cp.tsv; grep -P '^\d+\tldgsts\t' "$pat" >> /tmp/cp.tsv
nchunks=${NCHUNKS:-6}
: > "$out/ncu_mat.csv"; : > "$out/ncu_cp.csv"; : > "$out/ids_mat.tsv"; : > "$out/ids_cp.tsv"
for c in $(seq 0 $((nchunks - 1))); do
  for part in mat cp; do
    t0=$(date +%s.%N)
    if [ $part = mat ]; then m=$mat_metrics; k='regex:^(ldsm|stsm)_'; else m=$cp_metrics; k='regex:^ldgsts_'; fi
    "$NCU" --csv --page raw --clock-control none --cache-control none -k "$k" --metrics "$m" \
      --log-file /tmp/chunk.csv "$bin" /tmp/$part.tsv "$c" "$nchunks" /tmp/ids.tsv > /tmp/app.log 2>&1
    rc=$?
    t1=$(date +%s.%N)
    n=$(wc -l < /tmp/ids.tsv)
    echo "#chunk $c" >> "$out/ncu_$part.csv"; cat /tmp/chunk.csv >> "$out/ncu_$part.csv"
    sed "s/^/$c\t/" /tmp/ids.tsv >> "$out/ids_$part.tsv"
    log "chunk $c $part: rc=$rc, $n launches, $(python3 -c "print(f'{($t1-$t0)/max($n,1):.3f}')") s per launch"
    [ $rc -eq 0 ] || tail -20 /tmp/app.log | tee -a "$out/log.txt"
  done
  elapsed=$(( $(date +%s) - start ))
  per_chunk=$(( elapsed / (c + 1) ))
  if [ $((elapsed + per_chunk * 12 / 10)) -gt "$budget" ] && [ $c -lt $((nchunks - 1)) ]; then
    log "stopping: budget $budget s reached after chunk $c of $nchunks"
    break
  fi
done
log "done"
