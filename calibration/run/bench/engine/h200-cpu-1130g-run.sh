#!/bin/sh
# Device round (the H200 host's Xeon, CPU only; about 2 minutes, hard limit 3 min 30 s).
# old = main at 7e9f8aa, new = engine7 (the machine-code flow: LOP3 by words, lane masks by SSE2
# compares, results written per destination for all lanes, an index of the shared record's words);
# both libwarpscope_cudart.so built alike (release), one warpscope binary (new) for both: the flow
# runs in the program's process, in the runtime library.
# bench.py: old/new alternating at 1 and 16 threads, WARPSCOPE_TIMING=1, the machine flow on (as
# run runs where the CUDA tools are found): radix (bench9: localSort's early joins send its lines
# to the flow), fdiv (FCHK), hashq, and reduce 2^24 (a control: its lines no longer go to the flow).
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
(xz -dc bins.tar.xz 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open("bins.tar.xz").read())') | tar xf -
cp new/warpscope old/warpscope
chmod +x old/warpscope new/warpscope radix fdiv hashq reduce
(uptime; nproc; lscpu | head -20; echo "WARPSCOPE_CUDA_ROOT=$WARPSCOPE_CUDA_ROOT"; sha256sum old/* new/*) > "$R/cpu.txt" 2>&1
LIMIT=170 timeout 210 python3 bench.py "$R" > "$R/log.txt" 2>&1
echo "bench rc=$?" >> "$R/log.txt"
rm -f "$R"/*.json
tar czf "$OUT/results.tgz" -C "$R" .
