// Whole program: calls the runtime where warpscope's runtime does not follow yet (a graph's
// clone, a 3-D CUDA array) and where a kernel goes out of bounds; checks the codes it gets back.
// (Launches in thread-block clusters run: calibration/cluster/.)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void past_the_end(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i] = i;  // no bounds check: the last block writes past n
}

int main() {
    cudaGraph_t g, clone;
    cudaGraphCreate(&g, 0);
    cudaError_t e = cudaGraphClone(&clone, g);
    printf("cudaGraphClone: %s\n", cudaGetErrorName(e));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    void *q;
    cudaError_t ea = cudaMallocAsync(&q, 256, s);
    printf("cudaMallocAsync in a capture: %s\n", cudaGetErrorName(ea));
    cudaGraph_t captured;
    cudaStreamEndCapture(s, &captured);
    cudaMipmappedArray_t a;
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    cudaError_t e2 = cudaMallocMipmappedArray(&a, &d, make_cudaExtent(16, 16, 4), 3, 0);
    printf("cudaMallocMipmappedArray: %s\n", cudaGetErrorName(e2));
    int *p;
    cudaMalloc(&p, 100 * sizeof(int));
    past_the_end<<<2, 64>>>(p, 100);
    cudaError_t e3 = cudaDeviceSynchronize();
    printf("out of bounds: %s\n", cudaGetErrorName(e3));
    cudaError_t e4 = cudaMemset(p, 0, 4);
    printf("after it: %s\n", cudaGetErrorName(e4));
    return 0;
}
