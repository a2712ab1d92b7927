// Kernels for crates/analysis/tests/fix_data.rs: shared accesses whose addresses depend on the
// data the kernel reads, alone and beside conflicts a layout change removes.

// A 256-bin histogram: the bins a warp's atomics hit are chosen by the input.
extern "C" __global__ void hist(const unsigned *in, unsigned *out, int n) {
    __shared__ unsigned h[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] & 255], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&out[b], h[b]);
}

// A 32x32 tile read by columns (the seed's conflicting transpose: padding by one int removes
// it), and a gather from the same tile at rows a table chooses.
extern "C" __global__ void tgather(const float *in, const int *rows, float *out) {
    __shared__ float tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    int base = blockIdx.x * 1024;
    tile[y][x] = in[base + y * 32 + x];
    __syncthreads();
    float t = tile[x][y];
    float g = tile[rows[base + y * 32 + x] & 31][(x * 7) & 31];
    out[base + y * 32 + x] = t + g;
}
