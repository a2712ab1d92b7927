// Part of rdc (built with -rdc=true and device-linked with rdc.cu and rdc_ops.cu): the state the
// other translation units share through extern declarations.
#include <cstdint>

__device__ unsigned int g_calls;           // how many times opApply ran, over all threads
__device__ float g_bias[16];               // set by the host through cudaMemcpyToSymbol
__constant__ float c_scale[4] = {0.5f, 1.25f, -2.0f, 3.0f};
__device__ uint64_t g_hist[8];

__device__ __noinline__ void noteCall(int k) {
  atomicAdd(&g_calls, 1u);
  atomicAdd((unsigned long long *)&g_hist[k & 7], 1ull);
}
