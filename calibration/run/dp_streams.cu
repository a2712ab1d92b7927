// Dynamic parallelism: children launched into a stream the parent creates (non-blocking, as the
// device runtime requires), with dynamic shared memory, and the device runtime's queries.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale_smem(int *a, int n, int k) {
    extern __shared__ int tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? a[i] : 0;
    __syncthreads();
    // reversed within the block through shared memory
    int r = tile[blockDim.x - 1 - threadIdx.x];
    if (i < n) a[i] = r * k;
}

__global__ void fill(int *a, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v + i;
}

__global__ void parent(int *a, int *b, int n, int *info) {
    if (threadIdx.x != 0) return;
    cudaStream_t s;
    cudaError_t c = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    fill<<<(n + 127) / 128, 128, 0, s>>>(b, n, 1000);
    cudaError_t l1 = cudaGetLastError();
    scale_smem<<<n / 64, 64, 64 * sizeof(int)>>>(a, n, 3);
    cudaError_t l2 = cudaPeekAtLastError();
    cudaError_t d = cudaStreamDestroy(s);
    int dev = -1, sms = 0, cc = 0;
    cudaError_t g = cudaGetDevice(&dev);
    cudaError_t at = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev);
    info[0] = c; info[1] = l1; info[2] = l2; info[3] = d; info[4] = g; info[5] = at;
    info[6] = dev; info[7] = sms > 0; info[8] = cc;
}

int main() {
    const int N = 1024;
    int h[N];
    for (int i = 0; i < N; i++) h[i] = i;
    int *a, *b, *info;
    cudaMalloc(&a, N * sizeof(int));
    cudaMalloc(&b, N * sizeof(int));
    cudaMalloc(&info, 9 * sizeof(int));
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    parent<<<1, 32>>>(a, b, N, info);
    cudaError_t e = cudaDeviceSynchronize();
    int ha[N], hb[N], hi[9];
    cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
    cudaMemcpy(hi, info, sizeof hi, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int blk = i / 64, t = i % 64;
        if (ha[i] != 3 * (blk * 64 + 63 - t)) bad++;
        if (hb[i] != 1000 + i) bad++;
    }
    printf("synchronize %s\n", cudaGetErrorName(e));
    printf("create %d, launch %d, peek %d, destroy %d, getdevice %d, attribute %d\n", hi[0], hi[1], hi[2], hi[3], hi[4], hi[5]);
    printf("device %d, sms>0 %d, cc major %d\n", hi[6], hi[7], hi[8]);
    printf("a[0] %d a[1023] %d b[5] %d, mismatches %d\n", ha[0], ha[N - 1], hb[5], bad);
    return bad == 0 && e == cudaSuccess ? 0 : 1;
}
