// Shared-memory shapes of the book's chapter 5, written for this project: a square tile written by
// rows and read by columns and the reverse, with dynamic and padded variants; reductions in global
// memory and in shared memory, unrolled by 2, 4 and 8 blocks per thread block, a complete unroll
// through a template on the block size, and warp tails through a volatile pointer. Built -O2
// -lineinfo (and -G as book4_G); every result is checked on the host ("Test PASSED").
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define TILE 32
#define PAD 1

__global__ void tileRowsThenCols(int *out) {
    __shared__ int tile[TILE][TILE];
    unsigned id = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = id;
    __syncthreads();
    out[id] = tile[threadIdx.x][threadIdx.y];
}

__global__ void tileColsThenRows(int *out) {
    __shared__ int tile[TILE][TILE];
    unsigned id = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.x][threadIdx.y] = id;
    __syncthreads();
    out[id] = tile[threadIdx.y][threadIdx.x];
}

__global__ void tileDynamic(int *out) {
    extern __shared__ int flat[];
    unsigned id = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned colIdx = threadIdx.x * blockDim.y + threadIdx.y;
    flat[id] = id;
    __syncthreads();
    out[id] = flat[colIdx];
}

__global__ void tilePadded(int *out) {
    __shared__ int tile[TILE][TILE + PAD];
    unsigned id = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = id;
    __syncthreads();
    out[id] = tile[threadIdx.x][threadIdx.y];
}

__global__ void tileDynamicPadded(int *out) {
    extern __shared__ int flat[];
    unsigned id = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned rowIdx = threadIdx.y * (blockDim.x + PAD) + threadIdx.x;
    unsigned colIdx = threadIdx.x * (blockDim.x + PAD) + threadIdx.y;
    flat[rowIdx] = id;
    __syncthreads();
    out[id] = flat[colIdx];
}

// ---- reductions --------------------------------------------------------------------------------
#define BLK 128

// in place in global memory, the last warp unrolled through volatile
__global__ void sumGlobal(int *data, int *partial, unsigned n) {
    unsigned tid = threadIdx.x;
    int *base = data + blockIdx.x * blockDim.x;
    if (blockIdx.x * blockDim.x + tid >= n) return;
    for (int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) base[tid] += base[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = base;
        v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];
        v[tid] += v[tid + 4]; v[tid] += v[tid + 2]; v[tid] += v[tid + 1];
    }
    if (tid == 0) partial[blockIdx.x] = base[0];
}

__global__ void sumShared(const int *data, int *partial, unsigned n) {
    __shared__ int s[BLK];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? data[i] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 32; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];
        v[tid] += v[tid + 4]; v[tid] += v[tid + 2]; v[tid] += v[tid + 1];
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

// each block first adds UNROLL blocks' worth of data
template <int UNROLL>
__global__ void sumSharedUnrolled(const int *data, int *partial, unsigned n) {
    __shared__ int s[BLK];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x * UNROLL + tid;
    int acc = 0;
    if (i + (UNROLL - 1) * blockDim.x < n) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++) acc += data[i + u * blockDim.x];
    }
    s[tid] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 32; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];
        v[tid] += v[tid + 4]; v[tid] += v[tid + 2]; v[tid] += v[tid + 1];
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

// complete unroll on the block size, 8 blocks of data per block
template <unsigned B>
__global__ void sumComplete(const int *data, int *partial, unsigned n) {
    __shared__ int s[B];
    unsigned tid = threadIdx.x, i = blockIdx.x * B * 8 + tid;
    int acc = 0;
    if (i + 7 * B < n)
        for (int u = 0; u < 8; u++) acc += data[i + u * B];
    s[tid] = acc;
    __syncthreads();
    if (B >= 1024 && tid < 512) s[tid] += s[tid + 512];
    __syncthreads();
    if (B >= 512 && tid < 256) s[tid] += s[tid + 256];
    __syncthreads();
    if (B >= 256 && tid < 128) s[tid] += s[tid + 128];
    __syncthreads();
    if (B >= 128 && tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];
        v[tid] += v[tid + 4]; v[tid] += v[tid + 2]; v[tid] += v[tid + 1];
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

static int failures = 0;
static void expect(bool ok, const char *what) {
    printf("%-40s %s\n", what, ok ? "ok" : "MISMATCH");
    if (!ok) failures++;
}

static long long sumParts(const int *d, int parts) {
    int *h = (int *)malloc(parts * sizeof(int));
    CK(cudaMemcpy(h, d, parts * sizeof(int), cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < parts; i++) s += h[i];
    free(h);
    return s;
}

static bool checkTile(const int *d, bool transposed, int pad) {
    int h[TILE * TILE];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    (void)pad;
    for (int y = 0; y < TILE; y++)
        for (int x = 0; x < TILE; x++) {
            int want = transposed ? x * TILE + y : y * TILE + x;
            if (h[y * TILE + x] != want) return false;
        }
    return true;
}

int main() {
    int *dout;
    CK(cudaMalloc(&dout, TILE * TILE * sizeof(int)));
    dim3 blk(TILE, TILE);
    tileRowsThenCols<<<1, blk>>>(dout);
    expect(checkTile(dout, true, 0), "rows written, columns read");
    tileColsThenRows<<<1, blk>>>(dout);
    // element (y, x) was written by thread (x, y): id of the transposed thread
    expect(checkTile(dout, true, 0), "columns written, rows read");
    tileDynamic<<<1, blk, TILE * TILE * sizeof(int)>>>(dout);
    expect(checkTile(dout, true, 0), "dynamic tile");
    tilePadded<<<1, blk>>>(dout);
    expect(checkTile(dout, true, 1), "padded tile");
    tileDynamicPadded<<<1, blk, (TILE + PAD) * TILE * sizeof(int)>>>(dout);
    expect(checkTile(dout, true, 1), "dynamic padded tile");

    const unsigned n = 1 << 16;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    for (unsigned i = 0; i < n; i++) { h[i] = (int)(i * 7 % 23) - 11; want += h[i]; }
    int *dd, *dpart;
    CK(cudaMalloc(&dd, n * sizeof(int)));
    CK(cudaMalloc(&dpart, (n / BLK) * sizeof(int)));

    CK(cudaMemcpy(dd, h, n * sizeof(int), cudaMemcpyHostToDevice));
    sumGlobal<<<n / BLK, BLK>>>(dd, dpart, n);
    expect(sumParts(dpart, n / BLK) == want, "reduction in global memory");
    CK(cudaMemcpy(dd, h, n * sizeof(int), cudaMemcpyHostToDevice));
    sumShared<<<n / BLK, BLK>>>(dd, dpart, n);
    expect(sumParts(dpart, n / BLK) == want, "reduction in shared memory");
    sumSharedUnrolled<2><<<n / BLK / 2, BLK>>>(dd, dpart, n);
    expect(sumParts(dpart, n / BLK / 2) == want, "unrolled by 2");
    sumSharedUnrolled<4><<<n / BLK / 4, BLK>>>(dd, dpart, n);
    expect(sumParts(dpart, n / BLK / 4) == want, "unrolled by 4");
    sumSharedUnrolled<8><<<n / BLK / 8, BLK>>>(dd, dpart, n);
    expect(sumParts(dpart, n / BLK / 8) == want, "unrolled by 8");
    sumComplete<256><<<n / 256 / 8, 256>>>(dd, dpart, n);
    expect(sumParts(dpart, n / 256 / 8) == want, "complete unroll, 256 threads");
    sumComplete<512><<<n / 512 / 8, 512>>>(dd, dpart, n);
    expect(sumParts(dpart, n / 512 / 8) == want, "complete unroll, 512 threads");
    printf("sum %lld\n", want);

    CK(cudaFree(dout)); CK(cudaFree(dd)); CK(cudaFree(dpart));
    free(h);
    printf(failures ? "Test FAILED\n" : "Test PASSED\n");
    return failures ? 1 : 0;
}
