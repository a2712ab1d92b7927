// `warpscope run --check mapped_memset.cu`: no finding on `fill` (it reads a buffer cudaMemset
// zeroed and writes mapped host memory), and a global_race on `shift`, which shifts the mapped
// buffer in place (thread i reads element i + 1 while thread i + 1 writes it).
// Mapped (zero-copy) host memory written by the device, and a memset before a kernel that reads it.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(int *host_mapped, const int *zeroed) { host_mapped[threadIdx.x] = zeroed[threadIdx.x] + threadIdx.x; }
__global__ void shift(int *host_mapped) { host_mapped[threadIdx.x] = host_mapped[(threadIdx.x + 1) % 64]; }
int main() {
    int *h, *d, *z;
    cudaSetDeviceFlags(cudaDeviceMapHost);
    cudaHostAlloc(&h, 256, cudaHostAllocMapped);
    cudaHostGetDevicePointer(&d, h, 0);
    cudaMalloc(&z, 256);
    cudaMemset(z, 0, 256);
    fill<<<1, 64>>>(d, z);
    cudaDeviceSynchronize();
    shift<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    printf("h[0] = %d\n", h[0]);
    return 0;
}
