// expect: none
// launch: --grid 1 --block 64 --arg buf:128:zero --arg f16:1.5
// A `__half` parameter and a `__half` array: each thread writes its own element.
#include <cuda_fp16.h>
__global__ void half_param(__half *out, __half h) {
    int t = threadIdx.x;
    out[t] = __hadd(h, __int2half_rn(t));
}
