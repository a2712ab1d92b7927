// expect: race
// launch: --grid 1 --block 64 --arg buf:128:zero
// A shared `__half` array: each thread reads its neighbour's element with no barrier after the
// writes.
#include <cuda_fp16.h>
__global__ void half_shared(__half *out) {
    __shared__ __half s[64];
    int t = threadIdx.x;
    s[t] = __int2half_rn(t);
    out[t] = __hadd(s[t], s[(t + 1) % 64]);
}
