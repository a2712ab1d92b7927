// Variables and configuration calls as textbook programs use them: `__managed__` variables (a
// counter the host zeroes and reads directly, an initialised array the kernel rescales),
// `__device__` variables of mixed sizes and alignments (their placement is printed: offsets from
// the first, and each address modulo 256), the shared-memory bank and cache configuration calls
// (answered as an H100 answers them), and a shared-memory kernel that gathers from a `__device__`
// table (its global sectors depend on where the table is placed).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int failures = 0;
#define EXPECT(cond, what)                                  \
    do {                                                    \
        if (!(cond)) {                                      \
            printf("FAILED: %s (line %d)\n", what, __LINE__); \
            failures++;                                     \
        }                                                   \
    } while (0)

__managed__ int mhits;
__managed__ float mweights[8] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};

__device__ char dflag;
__device__ short dpair[3];
__device__ double dscale = 2.0;
__device__ float dlut[96];
__device__ int4 dquad;
__device__ unsigned char dbytes[5];
__device__ long long dwide;

// block (32, 4): each warp writes a row of a padded tile, then reads it back transposed in 4x8 groups
__global__ void gather(float *out, int n) {
    __shared__ float tile[4][33];
    int t = threadIdx.x, w = threadIdx.y;
    int i = blockIdx.x * 128 + w * 32 + t;
    tile[w][t] = i < n ? dlut[(i * 5) % 96] * mweights[t & 7] : 0.0f;
    __syncthreads();
    int j = blockIdx.x * 128 + t * 4 + w;
    if (j < n) out[j] = tile[w][t] + tile[t & 3][(t >> 2) + 8 * w % 32] * (float)dscale;
    if (t == 0 && i < n) atomicAdd(&mhits, 1);
}

__global__ void touch(float factor) {
    int t = threadIdx.x;
    if (t < 8) mweights[t] *= factor;
    if (t < 3) dpair[t] = (short)(100 + t);
    if (t < 5) dbytes[t] = (unsigned char)(7 * t);
    if (t == 0) {
        dflag = 'y';
        dquad = make_int4(1, 2, 3, 4);
        dwide = 1LL << 40;
    }
}

int main() {
    // configuration calls
    cudaSharedMemConfig bank;
    cudaError_t e = cudaDeviceGetSharedMemConfig(&bank);
    printf("cudaDeviceGetSharedMemConfig: %s, %s banks\n", cudaGetErrorName(e),
           bank == cudaSharedMemBankSizeFourByte ? "4-byte" : "8-byte");
    e = cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);
    printf("cudaDeviceSetSharedMemConfig(8-byte): %s\n", cudaGetErrorName(e));
    e = cudaDeviceGetSharedMemConfig(&bank);
    printf("after it: %s banks\n", bank == cudaSharedMemBankSizeFourByte ? "4-byte" : "8-byte");
    e = cudaFuncSetSharedMemConfig(gather, cudaSharedMemBankSizeFourByte);
    printf("cudaFuncSetSharedMemConfig: %s\n", cudaGetErrorName(e));
    cudaFuncCache cache;
    e = cudaDeviceGetCacheConfig(&cache);
    printf("cudaDeviceGetCacheConfig: %s, %d\n", cudaGetErrorName(e), (int)cache);
    e = cudaFuncSetCacheConfig(gather, cudaFuncCachePreferShared);
    printf("cudaFuncSetCacheConfig: %s\n", cudaGetErrorName(e));

    // __device__ placement
    void *a[7];
    cudaGetSymbolAddress(&a[0], dflag);
    cudaGetSymbolAddress(&a[1], dpair);
    cudaGetSymbolAddress(&a[2], dscale);
    cudaGetSymbolAddress(&a[3], dlut);
    cudaGetSymbolAddress(&a[4], dquad);
    cudaGetSymbolAddress(&a[5], dbytes);
    cudaGetSymbolAddress(&a[6], dwide);
    const char *names[7] = {"dflag", "dpair", "dscale", "dlut", "dquad", "dbytes", "dwide"};
    char *lo = (char *)a[0];
    for (int k = 1; k < 7; k++)
        if ((char *)a[k] < lo) lo = (char *)a[k];
    for (int k = 0; k < 7; k++)
        printf("layout %-6s +%ld mod256 %lu\n", names[k], (long)((char *)a[k] - lo),
               (unsigned long)((size_t)a[k] % 256));

    // __managed__ variables: the host writes and reads them directly
    float lut[96];
    for (int k = 0; k < 96; k++) lut[k] = (float)(k % 13) - 6.0f;
    cudaMemcpyToSymbol(dlut, lut, sizeof lut);
    mhits = 0;
    const int n = 1000;
    float *d_out;
    cudaMalloc(&d_out, n * sizeof(float));
    gather<<<(n + 127) / 128, dim3(32, 4)>>>(d_out, n);
    e = cudaDeviceSynchronize();
    EXPECT(e == cudaSuccess, "gather ran");
    EXPECT(mhits == (n + 31) / 32, "managed counter counts the warps with work");
    printf("mhits %d\n", mhits);
    float *out = (float *)malloc(n * sizeof(float));
    cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b * 128 < n; b++) {
        float tile[4][33];
        for (int w = 0; w < 4; w++)
            for (int t = 0; t < 32; t++) {
                int i = b * 128 + w * 32 + t;
                tile[w][t] = i < n ? lut[(i * 5) % 96] * mweights[t & 7] : 0.0f;
            }
        for (int w = 0; w < 4; w++)
            for (int t = 0; t < 32; t++) {
                int j = b * 128 + t * 4 + w;
                if (j < n && out[j] != tile[w][t] + tile[t & 3][(t >> 2) + 8 * w % 32] * 2.0f) bad++;
            }
    }
    EXPECT(bad == 0, "gather's output");

    touch<<<1, 32>>>(0.5f);
    cudaDeviceSynchronize();
    printf("mweights");
    for (int k = 0; k < 8; k++) printf(" %g", mweights[k]);
    printf("\n");
    EXPECT(mweights[0] == 0.25f && mweights[7] == 2.0f, "managed array rescaled by the kernel");
    short pair[3];
    unsigned char bytes[5];
    int4 quad;
    long long wide;
    char flag;
    double scale;
    cudaMemcpyFromSymbol(pair, dpair, sizeof pair);
    cudaMemcpyFromSymbol(bytes, dbytes, sizeof bytes);
    cudaMemcpyFromSymbol(&quad, dquad, sizeof quad);
    cudaMemcpyFromSymbol(&wide, dwide, sizeof wide);
    cudaMemcpyFromSymbol(&flag, dflag, 1);
    cudaMemcpyFromSymbol(&scale, dscale, sizeof scale);
    EXPECT(pair[2] == 102 && bytes[4] == 28 && quad.w == 4 && wide == (1LL << 40) && flag == 'y' &&
               scale == 2.0,
           "device variables written by the kernel");
    int hits_from_symbol = -1;
    cudaMemcpyFromSymbol(&hits_from_symbol, mhits, sizeof(int));
    EXPECT(hits_from_symbol == mhits, "a managed variable read as a symbol");
    e = cudaGetLastError();
    printf("last error: %s\n", cudaGetErrorName(e));
    cudaFree(d_out);
    free(out);
    printf(failures ? "Test FAILED\n" : "Test PASSED\n");
    return failures ? 1 : 0;
}
