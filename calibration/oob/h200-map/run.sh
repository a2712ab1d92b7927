#!/bin/bash
# Which 2 MiB pages around cudaMalloc buffers are mapped, where small chunks go, cudaFree reuse,
# and compute-sanitizer memcheck's verdict/text on off-by-one overruns. About 150 s.
cd "$(dirname "$0")"; mkdir -p r
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv > r/gpu.txt 2>&1
compute-sanitizer --version > r/sanitizer-version.txt 2>&1
M=$((2<<20))
# plain runs of the test program
for m in small far "big 65536" "big 1048576"; do
  echo "== $m" >> r/plain.txt; timeout 30 ./overrun $m >> r/plain.txt 2>&1; echo "exit $?" >> r/plain.txt
done
# memcheck on the same
for m in small far "big 65536" "big 1048576"; do
  f=r/memcheck_$(echo $m | tr ' ' _).txt
  timeout 90 compute-sanitizer --tool memcheck ./overrun $m > $f 2>&1; echo "exit $?" >> $f
done
timeout 90 compute-sanitizer --tool memcheck --padding 512 ./overrun small > r/memcheck_small_pad.txt 2>&1; echo "exit $?" >> r/memcheck_small_pad.txt
# page maps: first byte of each 2 MiB page around an allocation (one process per probe)
for i in $(seq -20 36); do timeout 20 ./overrun at 0 $((i*M)) 4 >> r/map_small.txt 2>&1 || echo "page $i exit $?" >> r/map_small.txt; done
for i in $(seq -20 20); do timeout 20 ./overrun at 0 $((i*M)) 3145728 >> r/map_3m.txt 2>&1 || echo "page $i exit $?" >> r/map_3m.txt; done
for i in $(seq -6 0) $(seq 32 50); do timeout 20 ./overrun at 0 $((i*M)) 67108864 >> r/map_64m.txt 2>&1 || echo "page $i exit $?" >> r/map_64m.txt; done
for i in $(seq -4 8); do timeout 20 ./overrun at 1 $((i*M)) 4 3145728 >> r/map_small_3m.txt 2>&1 || echo "page $i exit $?" >> r/map_small_3m.txt; done
for i in $(seq -4 8); do timeout 20 ./overrun at 1 $((i*M)) 3145728 3145728 >> r/map_3m_3m.txt 2>&1 || echo "page $i exit $?" >> r/map_3m_3m.txt; done
# small chunks: where the next chunk goes when one fills
timeout 30 ./overrun fill 2500 1024 > r/fill_1k.txt 2>&1
timeout 30 ./overrun fill 40 1048576 > r/fill_1m.txt 2>&1
timeout 30 ./overrun fill 12 3145728 > r/fill_3m.txt 2>&1
timeout 30 ./overrun reuse > r/reuse.txt 2>&1
echo done > r/done.txt
