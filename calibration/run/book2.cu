// More book-style kernels written for this project: transposes (row/column reads, 4-way unrolled,
// diagonal block order) over a matrix that is not a multiple of the block, a 1D stencil with
// __constant__ coefficients and a shared halo, shuffle up/down/xor with sub-warp widths, reductions
// in dynamic shared memory, unrolled by 4. Built -O2 -lineinfo; its own check prints "Test PASSED".
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void trNaiveRow(float *out, const float *in, int nx, int ny) {
    unsigned ix = blockDim.x * blockIdx.x + threadIdx.x, iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[ix * ny + iy] = in[iy * nx + ix];
}

__global__ void trNaiveCol(float *out, const float *in, int nx, int ny) {
    unsigned ix = blockDim.x * blockIdx.x + threadIdx.x, iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[iy * nx + ix] = in[ix * ny + iy];
}

__global__ void trUnroll4Row(float *out, const float *in, int nx, int ny) {
    unsigned ix = blockDim.x * blockIdx.x * 4 + threadIdx.x, iy = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned ti = iy * nx + ix, to = ix * ny + iy;
    if (ix + 3 * blockDim.x < nx && iy < ny) {
        out[to] = in[ti];
        out[to + ny * blockDim.x] = in[ti + blockDim.x];
        out[to + ny * 2 * blockDim.x] = in[ti + 2 * blockDim.x];
        out[to + ny * 3 * blockDim.x] = in[ti + 3 * blockDim.x];
    }
}

__global__ void trDiagonalRow(float *out, const float *in, int nx, int ny) {
    unsigned bx = (blockIdx.x + blockIdx.y) % gridDim.x, by = blockIdx.x;
    unsigned ix = blockDim.x * bx + threadIdx.x, iy = blockDim.y * by + threadIdx.y;
    if (ix < nx && iy < ny) out[ix * ny + iy] = in[iy * nx + ix];
}

#define RADIUS 4
#define BDIM 64
__constant__ float coef[RADIUS + 1];

__global__ void stencil1d(const float *in, float *out, int n) {
    __shared__ float smem[BDIM + 2 * RADIUS];
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int sidx = threadIdx.x + RADIUS;
    smem[sidx] = in[idx];
    if (threadIdx.x < RADIUS) {
        smem[sidx - RADIUS] = idx >= RADIUS ? in[idx - RADIUS] : 0.0f;
        smem[sidx + BDIM] = idx + BDIM < n ? in[idx + BDIM] : 0.0f;
    }
    __syncthreads();
    float tmp = 0.0f;
#pragma unroll
    for (int i = 1; i <= RADIUS; i++) tmp += coef[i] * (smem[sidx + i] - smem[sidx - i]);
    out[idx] = tmp;
}

__global__ void shflModes(const int *in, int *out) {
    int v = in[threadIdx.x];
    int up = __shfl_up_sync(0xffffffff, v, 2, 16);
    int down = __shfl_down_sync(0xffffffff, v, 3, 8);
    int x = __shfl_xor_sync(0xffffffff, v, 1, 32);
    int b = __shfl_sync(0xffffffff, v, 5, 16);
    out[threadIdx.x] = up + 10 * down + 100 * x + 1000 * b;
}

__global__ void reduceDyn(const int *in, int *out, unsigned n) {
    extern __shared__ int sm[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int s = 0;
    if (i + 3 * blockDim.x < n) s = in[i] + in[i + blockDim.x] + in[i + 2 * blockDim.x] + in[i + 3 * blockDim.x];
    sm[t] = s;
    __syncthreads();
    if (blockDim.x >= 1024 && t < 512) sm[t] += sm[t + 512];
    __syncthreads();
    if (blockDim.x >= 512 && t < 256) sm[t] += sm[t + 256];
    __syncthreads();
    if (blockDim.x >= 256 && t < 128) sm[t] += sm[t + 128];
    __syncthreads();
    if (blockDim.x >= 128 && t < 64) sm[t] += sm[t + 64];
    __syncthreads();
    if (t < 32) {
        int v = sm[t] + sm[t + 32];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
        if (t == 0) out[blockIdx.x] = v;
    }
}

int main() {
    bool ok = true;
    const int nx = 200, ny = 136;
    size_t nb = (size_t)nx * ny * sizeof(float);
    float *h = (float *)malloc(nb), *r = (float *)malloc(nb);
    for (int i = 0; i < nx * ny; i++) h[i] = (float)(i % 997) * 0.25f;
    float *din, *dout;
    CK(cudaMalloc(&din, nb));
    CK(cudaMalloc(&dout, nb));
    CK(cudaMemcpy(din, h, nb, cudaMemcpyHostToDevice));
    dim3 blk(16, 16), grd((nx + 15) / 16, (ny + 15) / 16);
    for (int k = 0; k < 4; k++) {
        CK(cudaMemset(dout, 0, nb));
        if (k == 0) trNaiveRow<<<grd, blk>>>(dout, din, nx, ny);
        if (k == 1) trNaiveCol<<<dim3(grd.y, grd.x), blk>>>(dout, din, ny, nx);
        if (k == 2) trUnroll4Row<<<dim3((nx + 63) / 64, grd.y), blk>>>(dout, din, nx, ny);
        if (k == 3) trDiagonalRow<<<dim3(grd.y, grd.y), blk>>>(dout, din, ny, ny);
        CK(cudaMemcpy(r, dout, nb, cudaMemcpyDeviceToHost));
        int bad = 0;
        if (k == 0)
            for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) bad += r[x * ny + y] != h[y * nx + x];
        if (k == 1)  // out[iy*ny+ix] = in[ix*nx+iy] with (nx, ny) swapped
            for (int y = 0; y < nx; y++) for (int x = 0; x < ny; x++) bad += r[y * ny + x] != h[x * nx + y];
        if (k == 2)  // only the columns covered by whole unrolled tiles
            for (int y = 0; y < ny; y++) for (int x = 0; x < 192; x++) bad += r[x * ny + y] != h[y * nx + x];
        if (k == 3)
            for (int y = 0; y < ny; y++) for (int x = 0; x < ny; x++) bad += r[x * ny + y] != h[y * ny + x];
        printf("transpose %d: %d wrong\n", k, bad);
        ok = ok && bad == 0;
    }
    // stencil
    const int n = 1 << 12;
    float hc[RADIUS + 1] = {0.0f, 0.8f, -0.2f, 0.038f, -0.0036f};
    CK(cudaMemcpyToSymbol(coef, hc, sizeof(hc)));
    stencil1d<<<n / BDIM, BDIM>>>(din, dout, n);
    CK(cudaMemcpy(r, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float t = 0.0f;
        for (int j = 1; j <= RADIUS; j++) {
            float a = i + j < n ? h[i + j] : 0.0f, b = i - j >= 0 ? h[i - j] : 0.0f;
            t += hc[j] * (a - b);
        }
        bad += fabsf(t - r[i]) > 1e-3f * (1.0f + fabsf(t));
    }
    printf("stencil: %d wrong\n", bad);
    ok = ok && bad == 0;
    // shuffles
    int hi[32], ho[32];
    for (int i = 0; i < 32; i++) hi[i] = i;
    int *di, *dq;
    CK(cudaMalloc(&di, 32 * sizeof(int)));
    CK(cudaMalloc(&dq, 4096 * sizeof(int)));
    CK(cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice));
    shflModes<<<1, 32>>>(di, dq);
    CK(cudaMemcpy(ho, dq, sizeof(ho), cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; l++) {
        int up = (l % 16) >= 2 ? l - 2 : l, down = (l % 8) + 3 < 8 ? l + 3 : l;
        int want = up + 10 * down + 100 * (l ^ 1) + 1000 * ((l / 16) * 16 + 5);
        ok = ok && ho[l] == want;
    }
    printf("shuffles: lane 17 -> %d\n", ho[17]);
    // reduction in dynamic shared memory
    const unsigned m = 1 << 15;
    int *hv = (int *)malloc(m * sizeof(int)), *hr = (int *)malloc(m / 1024 * sizeof(int));
    long ref = 0;
    for (unsigned i = 0; i < m; i++) { hv[i] = (int)(i % 13) - 6; ref += hv[i]; }
    int *dv;
    CK(cudaMalloc(&dv, m * sizeof(int)));
    CK(cudaMemcpy(dv, hv, m * sizeof(int), cudaMemcpyHostToDevice));
    reduceDyn<<<m / 1024, 256, 256 * sizeof(int)>>>(dv, dq, m);
    CK(cudaMemcpy(hr, dq, m / 1024 * sizeof(int), cudaMemcpyDeviceToHost));
    long s = 0;
    for (unsigned i = 0; i < m / 1024; i++) s += hr[i];
    printf("reduceDyn sum %ld (expected %ld)\n", s, ref);
    ok = ok && s == ref;
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
