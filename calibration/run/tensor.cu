// Tensor-core-style kernels in a whole program with its own checks: shared tiles staged with
// cp.async (16-byte .cg and 4-byte .ca), read with wmma and ldmatrix, written with stmatrix, and a
// warp reduction (redux). Built -O2 -lineinfo like the others; measured under ncu with the LDSM /
// STSM / LDGSTS counters (calibration/run/ncu.sh).
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// One warp per block: A (row-major) and B (column-major) 16x16 halves staged by cp.async.cg, one
// 16-byte chunk per lane each, then a wmma m16n16k16 product with float accumulation.
__global__ void wmmaTile(const half *a, const half *b, float *c) {
    __shared__ __align__(128) half sa[16 * 16];
    __shared__ __align__(128) half sb[16 * 16];
    int lane = threadIdx.x, blk = blockIdx.x;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(sa + lane * 8)), "l"(a + blk * 256 + lane * 8));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(sb + lane * 8)), "l"(b + blk * 256 + lane * 8));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c + blk * 256, fc, 16, wmma::mem_row_major);
}

// A 64x64 tile of 16-bit words, written swizzled (word [r][c] at [r][c ^ ((r & 7) << 3)]), read by
// ldmatrix.x4 (plain, then .trans) and written back by stmatrix.x4 of the same form to a padded
// tile (72 words a row), then copied out: both round trips give the tile back.
__global__ void ldsmRoundTrip(const unsigned short *in, unsigned short *out, unsigned short *outT) {
    __shared__ __align__(128) unsigned short t[64 * 64];
    __shared__ __align__(128) unsigned short p[64 * 72];
    __shared__ __align__(128) unsigned short q[64 * 72];
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
        int r = i / 64, c = i % 64;
        t[r * 64 + (c ^ ((r & 7) << 3))] = in[blockIdx.x * 4096 + i];
    }
    __syncthreads();
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int k = 0; k < 4; ++k) {
        int r = warp * 16 + lane % 16, c = k * 16 + (lane / 16) * 8;
        unsigned src = smem(&t[r * 64 + (c ^ ((r & 7) << 3))]);
        unsigned x0, x1, x2, x3;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(src));
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                     :: "r"(smem(&p[r * 72 + c])), "r"(x0), "r"(x1), "r"(x2), "r"(x3) : "memory");
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(src));
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                     :: "r"(smem(&q[r * 72 + c])), "r"(x0), "r"(x1), "r"(x2), "r"(x3) : "memory");
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
        out[blockIdx.x * 4096 + i] = p[(i / 64) * 72 + i % 64];
        outT[blockIdx.x * 4096 + i] = q[(i / 64) * 72 + i % 64];
    }
}

// cp.async.ca of 4-byte words into a shared array at a stride of 2 words (a 2-way conflict on the
// shared side, contiguous sources), then each warp's sum by __reduce_add_sync.
__global__ void asyncRedux(const int *in, int *out) {
    __shared__ int s[512];
    int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&s[(t * 2) % 512 + (t * 2) / 512])),
                 "l"(in + blockIdx.x * 256 + t));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    int v = s[(t * 2) % 512 + (t * 2) / 512];
    int sum = __reduce_add_sync(0xffffffffu, v);
    if (t % 32 == 0) out[blockIdx.x * 8 + t / 32] = sum;
}

int main() {
    bool ok = true;
    // wmma
    const int tiles = 4;
    half *ha = (half *)malloc(tiles * 256 * sizeof(half)), *hb = (half *)malloc(tiles * 256 * sizeof(half));
    float *fa = (float *)malloc(tiles * 256 * sizeof(float)), *fb = (float *)malloc(tiles * 256 * sizeof(float));
    for (int i = 0; i < tiles * 256; i++) {
        fa[i] = (float)((i * 7) % 9 - 4);
        fb[i] = (float)((i * 5) % 7 - 3);
        ha[i] = __float2half(fa[i]);
        hb[i] = __float2half(fb[i]);
    }
    half *da, *db;
    float *dc;
    CHECK(cudaMalloc(&da, tiles * 256 * sizeof(half)));
    CHECK(cudaMalloc(&db, tiles * 256 * sizeof(half)));
    CHECK(cudaMalloc(&dc, tiles * 256 * sizeof(float)));
    CHECK(cudaMemcpy(da, ha, tiles * 256 * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, tiles * 256 * sizeof(half), cudaMemcpyHostToDevice));
    wmmaTile<<<tiles, 32>>>(da, db, dc);
    CHECK(cudaGetLastError());
    float *hc = (float *)malloc(tiles * 256 * sizeof(float));
    CHECK(cudaMemcpy(hc, dc, tiles * 256 * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < tiles; t++)
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++) {
                float s = 0;
                for (int k = 0; k < 16; k++) s += fa[t * 256 + i * 16 + k] * fb[t * 256 + j * 16 + k];
                bad += hc[t * 256 + i * 16 + j] != s;
            }
    printf("wmmaTile: %s\n", bad ? "MISMATCH" : "ok");
    ok &= !bad;

    // ldmatrix / stmatrix
    const int blocks = 2, n = blocks * 4096;
    unsigned short *hin = (unsigned short *)malloc(n * 2), *hout = (unsigned short *)malloc(n * 2);
    for (int i = 0; i < n; i++) hin[i] = (unsigned short)(i * 2654435761u >> 11);
    unsigned short *din, *dout, *doutT;
    CHECK(cudaMalloc(&din, n * 2));
    CHECK(cudaMalloc(&dout, n * 2));
    CHECK(cudaMalloc(&doutT, n * 2));
    CHECK(cudaMemcpy(din, hin, n * 2, cudaMemcpyHostToDevice));
    ldsmRoundTrip<<<blocks, 128>>>(din, dout, doutT);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, n * 2, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++) bad += hout[i] != hin[i];
    CHECK(cudaMemcpy(hout, doutT, n * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) bad += hout[i] != hin[i];
    printf("ldsmRoundTrip: %s\n", bad ? "MISMATCH" : "ok");
    ok &= !bad;

    // cp.async.ca + redux
    const int rb = 8;
    int *hi = (int *)malloc(rb * 256 * sizeof(int)), *ho = (int *)malloc(rb * 8 * sizeof(int));
    for (int i = 0; i < rb * 256; i++) hi[i] = (i * 37) % 101 - 50;
    int *di, *dO;
    CHECK(cudaMalloc(&di, rb * 256 * sizeof(int)));
    CHECK(cudaMalloc(&dO, rb * 8 * sizeof(int)));
    CHECK(cudaMemcpy(di, hi, rb * 256 * sizeof(int), cudaMemcpyHostToDevice));
    asyncRedux<<<rb, 256>>>(di, dO);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ho, dO, rb * 8 * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int b = 0; b < rb; b++)
        for (int w = 0; w < 8; w++) {
            int s = 0;
            for (int l = 0; l < 32; l++) s += hi[b * 256 + w * 32 + l];
            bad += ho[b * 8 + w] != s;
        }
    printf("asyncRedux: %s\n", bad ? "MISMATCH" : "ok");
    ok &= !bad;
    printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
