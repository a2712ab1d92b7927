// Whole program: the seed's shared-memory square and rectangular transposes (row/column
// writes and reads, dynamic shared memory, padding), checked against the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BDIMX 32
#define BDIMY 32
#define RX 32
#define RY 16
#define IPAD 1

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e = (call);                                                  \
        if (e != cudaSuccess) {                                                  \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

__global__ void setRowReadRow(int *out) {
    __shared__ int tile[BDIMY][BDIMX];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

__global__ void setColReadCol(int *out) {
    __shared__ int tile[BDIMX][BDIMY];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.x][threadIdx.y] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void setRowReadCol(int *out) {
    __shared__ int tile[BDIMY][BDIMX];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void setRowReadColDyn(int *out) {
    extern __shared__ int tile[];
    unsigned row = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned col = threadIdx.x * blockDim.y + threadIdx.y;
    tile[row] = row;
    __syncthreads();
    out[row] = tile[col];
}

__global__ void setRowReadColPad(int *out) {
    __shared__ int tile[BDIMY][BDIMX + IPAD];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void setRowReadColDynPad(int *out) {
    extern __shared__ int tile[];
    unsigned row = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned col = threadIdx.x * (blockDim.x + IPAD) + threadIdx.y;
    unsigned g = threadIdx.y * blockDim.x + threadIdx.x;
    tile[row] = g;
    __syncthreads();
    out[g] = tile[col];
}

__global__ void rectRowReadCol(int *out) {
    __shared__ int tile[RY][RX];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned irow = idx / blockDim.y;
    unsigned icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

__global__ void rectRowReadColPad(int *out) {
    __shared__ int tile[RY][RX + 2];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned irow = idx / blockDim.y;
    unsigned icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

static int check(const char *name, const int *got, int nx, int ny, int mode) {
    // mode 0: identity; 1: square transpose; 2: rectangular transpose
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            int idx = y * nx + x;
            int want = idx;
            if (mode == 1) want = x * nx + y;
            if (mode == 2) { int irow = idx / ny, icol = idx % ny; want = icol * nx + irow; }
            if (got[idx] != want) {
                printf("%s: mismatch at %d: %d != %d\n", name, idx, got[idx], want);
                return 0;
            }
        }
    printf("%s: Arrays match\n", name);
    return 1;
}

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device %s, %d SMs, %zu bytes shared per block\n", prop.name, prop.multiProcessorCount,
           prop.sharedMemPerBlock);
    int n = BDIMX * BDIMY;
    int *d, *h = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    int ok = 1;
    dim3 block(BDIMX, BDIMY);
#define RUN(k, smem, nx, ny, mode, blk)                                 \
    CHECK(cudaMemset(d, 0, n * sizeof(int)));                          \
    k<<<1, blk, smem>>>(d);                                            \
    CHECK(cudaGetLastError());                                         \
    CHECK(cudaDeviceSynchronize());                                    \
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));  \
    ok &= check(#k, h, nx, ny, mode);
    RUN(setRowReadRow, 0, BDIMX, BDIMY, 0, block);
    RUN(setColReadCol, 0, BDIMX, BDIMY, 0, block);
    RUN(setRowReadCol, 0, BDIMX, BDIMY, 1, block);
    RUN(setRowReadColDyn, BDIMX * BDIMY * sizeof(int), BDIMX, BDIMY, 1, block);
    RUN(setRowReadColPad, 0, BDIMX, BDIMY, 1, block);
    RUN(setRowReadColDynPad, (BDIMX + IPAD) * BDIMY * sizeof(int), BDIMX, BDIMY, 1, block);
    dim3 rblock(RX, RY);
    RUN(rectRowReadCol, 0, RX, RY, 2, rblock);
    RUN(rectRowReadColPad, 0, RX, RY, 2, rblock);
    CHECK(cudaFree(d));
    free(h);
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
