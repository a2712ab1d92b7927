// A multi-stage pipeline of 16-byte cp.async.cg copies (LDGSTS.E.BYPASS.128), as tiled kernels
// stream their inputs: each block of 128 threads copies `tiles` tiles of 2 KiB (one 16-byte chunk
// per thread, contiguous) through STAGES shared buffers, waiting with cp.async.wait_group
// STAGES - 1, and sums what it reads. Global load sectors the copies read: blocks * tiles * 64.
// Each configuration is launched three times (repeatability within a run and across runs).
// SAME = 1: every block copies the same tiles (blocks on one SM read the same sectors at about the
// same time); SAME = 0: each block its own.
// Build: nvcc -O3 -arch=sm_90 -o pipe pipe.cu     Run: ./pipe BLOCKS TILES SAME
#include <cstdio>
#include <cstdlib>

__device__ __forceinline__ void copy16(void *dst, const void *src) {
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src));
}

template <int STAGES>
__global__ void pipe(const int4 *__restrict__ in, int *out, int tiles, int same) {
    __shared__ __align__(128) int4 buf[STAGES][128];
    int t = threadIdx.x;
    const int4 *base = in + (same ? 0 : (size_t)blockIdx.x * tiles * 128);
    int acc = 0;
    for (int s = 0; s < STAGES - 1 && s < tiles; s++) {
        copy16(&buf[s][t], base + s * 128 + t);
        asm volatile("cp.async.commit_group;");
    }
    for (int k = 0; k < tiles; k++) {
        int nk = k + STAGES - 1;
        if (nk < tiles) copy16(&buf[nk % STAGES][t], base + nk * 128 + t);
        asm volatile("cp.async.commit_group;");
        asm volatile("cp.async.wait_group %0;" ::"n"(STAGES - 1) : "memory");
        __syncthreads();
        int4 v = buf[k % STAGES][(t * 5) % 128];
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
    }
    out[blockIdx.x * 128 + t] = acc;
}

int main(int argc, char **argv) {
    int blocks = argc > 1 ? atoi(argv[1]) : 528, tiles = argc > 2 ? atoi(argv[2]) : 32;
    int same = argc > 3 ? atoi(argv[3]) : 0;
    size_t n = (size_t)blocks * tiles * 128;
    int4 *in;
    int *out;
    cudaMalloc(&in, n * sizeof(int4));
    cudaMalloc(&out, (size_t)blocks * 128 * sizeof(int));
    cudaMemset(in, 1, n * sizeof(int4));
    for (int r = 0; r < 3; r++) {
        pipe<1><<<blocks, 128>>>(in, out, tiles, same);
        pipe<2><<<blocks, 128>>>(in, out, tiles, same);
        pipe<3><<<blocks, 128>>>(in, out, tiles, same);
        pipe<4><<<blocks, 128>>>(in, out, tiles, same);
    }
    int h = 0;
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s blocks %d tiles %d same %d sectors/launch %zu out0 %d\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e),
           blocks, tiles, same, n * 16 / 32, h);
    return e != cudaSuccess;
}
