// 256-bin histogram in shared memory, grid-stride over the input; skew = 1 sends every atomic to bin 0
// (many shared atomics on one word: the checker keeps up to four other threads' atomics beside a cell).
__global__ void hist(const unsigned *in, unsigned *out, int n, int skew) {
    __shared__ unsigned h[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[skew ? 0 : in[i] & 255], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&out[b], h[b]);
}
