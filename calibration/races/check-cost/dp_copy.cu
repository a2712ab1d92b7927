// The cost of `warpscope run --check` copying program memory before each launch of a kernel that
// launches kernels (dynamic parallelism): a 1 MiB working buffer, PAD_MB MiB of further device
// memory (written once by cudaMemset, never touched by a kernel), and LAUNCHES launches of a parent
// kernel whose 16 blocks each launch a child grid on their part of the working buffer. Checked
// against the host. Built -rdc=true -lcudadevrt.
//   dp_copy PAD_MB LAUNCHES
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void child(int *seg, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) seg[i] += 1;
}

__global__ void parent(int *buf, int seg) {
    int *mine = buf + (size_t)blockIdx.x * seg;
    for (int i = threadIdx.x; i < seg; i += blockDim.x) mine[i] += 2;
    __syncthreads();
    if (threadIdx.x == 0) child<<<seg / 256, 256>>>(mine, seg);
}

int main(int argc, char **argv) {
    int pad_mb = argc > 1 ? atoi(argv[1]) : 0;
    int launches = argc > 2 ? atoi(argv[2]) : 4;
    const int N = 1 << 18, BLOCKS = 16, SEG = N / BLOCKS;
    int *buf = nullptr, *pad = nullptr;
    cudaMalloc(&buf, N * sizeof(int));
    cudaMemset(buf, 0, N * sizeof(int));
    if (pad_mb > 0) {
        cudaMalloc(&pad, (size_t)pad_mb << 20);
        cudaMemset(pad, 1, (size_t)pad_mb << 20);
    }
    for (int l = 0; l < launches; l++) parent<<<BLOCKS, 256>>>(buf, SEG);
    cudaDeviceSynchronize();
    int *h = (int *)malloc(N * sizeof(int));
    cudaMemcpy(h, buf, N * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += h[i] != 3 * launches;
    printf("dp_copy: pad %d MiB, %d launches: %s\n", pad_mb, launches, bad ? "FAIL" : "PASS");
    free(h);
    cudaFree(buf);
    if (pad) cudaFree(pad);
    return bad != 0;
}
