// expect: none
// launch: --grid 2 --block 64 --arg buf:16:zero --arg buf:32:zero
// Atomics on 16-bit and packed types: __half, __half2 and __nv_bfloat16 atomicAdd, a 16-bit
// atomicCAS, atomicAdd_system, and atomicAdd_block on a word of the thread's own block only
// (a block-scope atomic does not order, or exempt, threads of different blocks).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void half_atomics(__half *h, unsigned short *u) {
    atomicAdd(h, __float2half(1.0f));
    atomicAdd(reinterpret_cast<__half2 *>(h + 2), __floats2half2_rn(1.0f, 2.0f));
    atomicAdd(reinterpret_cast<__nv_bfloat16 *>(h + 4), __float2bfloat16(0.5f));
    atomicCAS(u, (unsigned short)0, (unsigned short)threadIdx.x);
    atomicAdd_block(reinterpret_cast<int *>(u + 4 + 2 * blockIdx.x), 1);
    atomicAdd_system(reinterpret_cast<unsigned *>(u + 8), 1u);
}
