#!/bin/sh
# Runs `warpscope analyze` on each kernel of this folder with the launch hopper_run makes (random
# buffer contents; the replay test uses hopper_run's inputs):
#   calibration/hopper/analyze.sh [WARPSCOPE] [KERNEL] [extra analyze options...]
W=${1:-warpscope}; ONLY=$2; [ $# -ge 2 ] && shift 2 || shift $#
H=$(cd "$(dirname "$0")" && pwd)
T=$H/triton
a() { name=$1; shift; [ -n "$ONLY" ] && [ "$ONLY" != "$name" ] && return; echo "== $name"; "$W" analyze --arch sm_90a "$@"; echo "exit $?"; }
a vadd $T/vadd.ptx --grid 4 --block 128 --arg buf:16000 --arg buf:16000 --arg buf:16000:zero --arg i32:4000 --arg u64:0 --arg u64:0 "$@"
a softmax $T/softmax.ptx --grid 8 --block 128 --dyn-smem 16 --arg buf:12800:zero --arg buf:12800 --arg i32:200 --arg i32:200 --arg i32:16 --arg i32:200 --arg u64:0 --arg u64:0 "$@"
a layernorm $T/layernorm.ptx --grid 8 --block 128 --dyn-smem 16 --arg buf:4800 --arg buf:4800:zero --arg buf:600 --arg buf:600 --arg buf:32:zero --arg buf:32:zero --arg i32:300 --arg i32:300 --arg f32:1e-5 --arg u64:0 --arg u64:0 "$@"
a matmul_w4 $T/matmul_w4.ptx --grid 4 --block 128 --dyn-smem 8192 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero --arg i32:128 --arg i32:128 --arg i32:128 --arg i32:128 --arg i32:128 --arg i32:128 --arg u64:0 --arg u64:0 "$@"
a matmul_w8 $T/matmul_w8.ptx --grid 2 --block 256 --dyn-smem 16384 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero --arg i32:128 --arg i32:128 --arg i32:128 --arg i32:128 --arg i32:128 --arg i32:128 --arg u64:0 --arg u64:0 "$@"
a dropout $T/dropout.ptx --grid 4 --block 128 --arg buf:16000 --arg buf:16000:zero --arg i32:4000 --arg f32:0.25 --arg i32:1234 --arg u64:0 --arg u64:0 "$@"
a attn_ptr $T/attn_ptr.ptx --grid 2,2 --block 128 --dyn-smem 16384 --arg buf:32768 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero --arg f32:0.125 --arg i32:128 --arg i32:8192 --arg i32:64 --arg u64:0 --arg u64:0 "$@"
a attn_desc_dev $T/attn_desc_dev.ptx --grid 2,2 --block 128 --dyn-smem 40992 --arg buf:32768 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero --arg f32:0.125 --arg i32:128 --arg i32:2 --arg buf:2048:zero --arg u64:0 "$@"
a gemm_sm80 $H/cute/gemms.ptx -k gemm_sm80 --grid 2,2 --block 128 --arg i32:128 --arg i32:128 --arg i32:128 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero "$@"
a gemm_sm80_ca4 $H/cute/gemms.ptx -k gemm_sm80_ca4 --grid 2,2 --block 128 --arg i32:128 --arg i32:128 --arg i32:128 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero "$@"
a gemm_wgmma $H/cute/gemms.ptx -k gemm_wgmma --grid 1,2 --block 128 --dyn-smem 24576 --arg i32:128 --arg i32:128 --arg i32:128 --arg buf:32768 --arg buf:32768 --arg buf:32768:zero "$@"
