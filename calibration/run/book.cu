// Book-style kernels written for this project: shared-memory reductions (with the loop, unrolled,
// with warp shuffles), guarded 2D kernels, a kernel that prints its indices, a device-function
// call in a loop. Built -O2 -lineinfo as a user builds; its own check prints "Test PASSED".
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define DIM 128

__global__ void smemReduce(const int *in, int *out, unsigned n) {
    __shared__ int tile[DIM];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[t] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s >= 32; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t < 32) {
        volatile int *v = tile;
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0) out[blockIdx.x] = tile[0];
}

__inline__ __device__ int warpSum(int v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__global__ void shflReduce(const int *in, int *out, unsigned n) {
    __shared__ int partial[DIM / 32];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warpSum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / 32) ? partial[lane] : 0;
    if (warp == 0) v = warpSum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void addMatrix(const float *a, const float *b, float *c, int nx, int ny) {
    int ix = threadIdx.x + blockIdx.x * blockDim.x;
    int iy = threadIdx.y + blockIdx.y * blockDim.y;
    if (ix < nx && iy < ny) c[iy * nx + ix] = a[iy * nx + ix] + b[iy * nx + ix];
}

template <int PAD>
__global__ void transposeSmem(const float *in, float *out, int nx, int ny) {
    __shared__ float tile[32][32 + PAD];
    int ix = blockIdx.x * 32 + threadIdx.x, iy = blockIdx.y * 32 + threadIdx.y;
    if (ix < nx && iy < ny) tile[threadIdx.y][threadIdx.x] = in[iy * nx + ix];
    __syncthreads();
    int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
    if (ox < ny && oy < nx) out[oy * ny + ox] = tile[threadIdx.x][threadIdx.y];
}

__global__ void checkIndex(void) {
    printf("threadIdx:(%d, %d, %d) blockIdx:(%d, %d, %d) blockDim:(%d, %d, %d) gridDim:(%d, %d, %d)\n",
           threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
           blockDim.x, blockDim.y, blockDim.z, gridDim.x, gridDim.y, gridDim.z);
}

__global__ void report(const float *v, int n) {
    if (threadIdx.x < n) printf("v[%d] = %6.2f (%s)\n", threadIdx.x, v[threadIdx.x], v[threadIdx.x] > 1.0f ? "big" : "small");
}

int main() {
    bool ok = true;
    // reductions
    const unsigned n = 1 << 14;
    int *h = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n / DIM * sizeof(int));
    long ref = 0;
    for (unsigned i = 0; i < n; i++) { h[i] = (int)((i * 7u) % 11u) - 3; ref += h[i]; }
    int *din, *dout;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dout, n / DIM * sizeof(int)));
    CK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int k = 0; k < 2; k++) {
        if (k == 0) smemReduce<<<n / DIM, DIM>>>(din, dout, n);
        else shflReduce<<<n / DIM, DIM>>>(din, dout, n);
        CK(cudaMemcpy(r, dout, n / DIM * sizeof(int), cudaMemcpyDeviceToHost));
        long s = 0;
        for (unsigned i = 0; i < n / DIM; i++) s += r[i];
        printf("%s sum %ld (expected %ld)\n", k ? "shflReduce" : "smemReduce", s, ref);
        ok = ok && s == ref;
    }
    // matrices: sizes not multiples of the block
    const int nx = 100, ny = 70;
    float *ha = (float *)malloc(nx * ny * sizeof(float)), *hb = (float *)malloc(nx * ny * sizeof(float));
    float *hc = (float *)malloc(nx * ny * sizeof(float));
    for (int i = 0; i < nx * ny; i++) { ha[i] = i * 0.5f; hb[i] = 1.0f - i; }
    float *da, *db, *dc;
    CK(cudaMalloc(&da, nx * ny * sizeof(float)));
    CK(cudaMalloc(&db, nx * ny * sizeof(float)));
    CK(cudaMalloc(&dc, nx * ny * sizeof(float)));
    CK(cudaMemcpy(da, ha, nx * ny * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb, nx * ny * sizeof(float), cudaMemcpyHostToDevice));
    dim3 blk(16, 16), grd((nx + 15) / 16, (ny + 15) / 16);
    addMatrix<<<grd, blk>>>(da, db, dc, nx, ny);
    CK(cudaMemcpy(hc, dc, nx * ny * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nx * ny; i++) ok = ok && hc[i] == ha[i] + hb[i];
    dim3 tb(32, 32), tg((nx + 31) / 32, (ny + 31) / 32);
    for (int pad = 0; pad < 2; pad++) {
        CK(cudaMemset(dc, 0, nx * ny * sizeof(float)));
        if (pad) transposeSmem<1><<<tg, tb>>>(da, dc, nx, ny);
        else transposeSmem<0><<<tg, tb>>>(da, dc, nx, ny);
        CK(cudaMemcpy(hc, dc, nx * ny * sizeof(float), cudaMemcpyDeviceToHost));
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) ok = ok && hc[x * ny + y] == ha[y * nx + x];
    }
    // device printf: flushed at the synchronisation, after the host's line
    checkIndex<<<dim3(2, 1), dim3(2, 2)>>>();
    printf("host: launched checkIndex\n");
    CK(cudaDeviceSynchronize());
    report<<<1, 4>>>(da + 1, 3);
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    CK(cudaDeviceReset());
    return ok ? 0 : 1;
}
