// cp.async 16-byte (LDGSTS.E.BYPASS.128) shared wavefronts: lane t copies 16 bytes from global
// in[(t * sstride) * 4 ...] to shared word (t * dstride + doff) * 4 (all in 16-byte units), one warp per
// launch, over a grid of (dstride, sstride, doff). Build: nvcc -O3 -arch=sm_90 -o cp16 cp16.cu.
#include <cstdio>
#include <cuda_pipeline.h>

__global__ void cp16(float *out, const float *in, int dstride, int sstride, int doff)
{
    __shared__ __align__(16) float s[8192];
    unsigned int t = threadIdx.x;
    unsigned int slot = ((t * dstride + doff) * 4) % 8188;
    __pipeline_memcpy_async(&s[slot], &in[(t * sstride) * 4], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncwarp();
    out[t] = s[slot];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * 32 * 16);
    cudaMalloc(&out, 32 * 4);
    cudaMemset(in, 0, 64 * 32 * 16);
    for (int ss : {1, 2, 0})
        for (int ds = 0; ds <= 12; ds++)
            for (int off : {0, 1})
                cp16<<<1, 32>>>(out, in, ds, ss, off);
    for (int ds : {16, 17, 31, 32, 33, -1, -2})
        cp16<<<1, 32>>>(out, in, ds, 1, 64);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e));
    return e != cudaSuccess;
}
