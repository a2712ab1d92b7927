// cp.async (LDGSTS) into shared memory: how Nsight Compute counts its shared-side wavefronts. One warp
// copies 4, 8 or 16 bytes per lane from global memory to s[lane * stride] (in units of the copy
// width); every (width, stride) pair is one launch of one warp.
// Build: nvcc -O3 -arch=sm_90 -o cpasync cpasync.cu; run under ncu (run.sh).
#include <cstdio>
#include <cuda_pipeline.h>

template <int W>
__global__ void cp(float *out, const float *in, int stride)
{
    __shared__ __align__(16) float s[8192];
    unsigned int t = threadIdx.x;
    const int words = W / 4;
    unsigned int slot = (t * stride * words) % (8192 - words);
    __pipeline_memcpy_async(&s[slot], &in[t * words], W);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncwarp();
    out[t] = s[slot];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 32 * 16);
    cudaMalloc(&out, 32 * 4);
    cudaMemset(in, 0, 32 * 16);
    const int strides[] = {0, 1, 2, 3, 4, 8, 16, 32, 33};
    for (int s : strides) {
        cp<4><<<1, 32>>>(out, in, s);
        cp<8><<<1, 32>>>(out, in, s);
        cp<16><<<1, 32>>>(out, in, s);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e));
    return e != cudaSuccess;
}
