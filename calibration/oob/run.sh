#!/bin/bash
cd "$(dirname "$0")"; mkdir -p r
export LD_LIBRARY_PATH=$PWD/../common:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv > r/gpu.txt 2>&1
./oob layout > r/layout.txt 2>&1; ./oob layout > r/layout2.txt 2>&1
for size in 4 256 1000 4096 65536 1048576 2097152 3145728 67108864; do
  for off in 0 4 64 252 256 508 512 4096 65536 1048576 2097152 4194304 -1 -4096; do
    for m in r w; do timeout 20 ./oob probe $size $off $m >> r/probe.txt 2>&1 || echo "size $size off $off $m exit $?" >> r/probe.txt; done
  done
done
for off in 0 4 252 256 4096 1048576; do timeout 20 ./oob probe 4 $off w 100 >> r/probe_pre.txt 2>&1; done
