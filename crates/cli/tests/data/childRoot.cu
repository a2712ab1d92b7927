// Prints the CUDA root the runtime in this process searches first (WARPSCOPE_CUDA_ROOT), then
// launches a kernel with shared-memory traffic whose widths need the machine code (nvdisasm).
#include <cstdio>
#include <cstdlib>
__global__ void rowsum(int *out) {
    __shared__ int row[64];
    row[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = row[threadIdx.x] + row[(threadIdx.x + 1) % 64];
}
int main() {
    const char *root = getenv("WARPSCOPE_CUDA_ROOT");
    printf("root %s\n", root ? root : "(unset)");
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    rowsum<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[63] = %d\n", h[63]);
    return h[63] == 63 ? 0 : 1;
}
