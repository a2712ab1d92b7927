// Whole program: the runtime API surface a CUDA program uses, each step checked by the program
// itself: device query, malloc/pitch/memset/memcpy in every direction (sync and async, 2D),
// pinned, mapped zero-copy (cudaHostGetDevicePointer), managed memory, __device__/__constant__
// symbols, streams, events, stream callbacks and host functions, the occupancy API, errors.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e = (call);                                                  \
        if (e != cudaSuccess) {                                                  \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static int failures = 0;
#define EXPECT(cond, what)                                   \
    do {                                                     \
        if (!(cond)) { printf("FAILED: %s\n", what); failures++; } \
        else printf("ok: %s\n", what);                       \
    } while (0)

__constant__ float cscale[4];
__device__ int dcounter;
__device__ float dtable[64];

__global__ void scale(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * cscale[i & 3] + dtable[i & 63];
}

__global__ void count(int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&dcounter, 1);
}

__global__ void incr(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

__global__ void pitched(float *p, size_t pitch, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] = row[x] * 2.0f + (float)y;
    }
}

static int callbacks = 0;
static void CUDART_CB onStream(cudaStream_t, cudaError_t status, void *data) {
    if (status == cudaSuccess) callbacks += *(int *)data;
}
static void CUDART_CB hostFn(void *data) { callbacks += *(int *)data; }

int main() {
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    EXPECT(ndev >= 1, "a device");
    CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int cc_major = 0, warp = 0;
    CHECK(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
    printf("%s: CC %d.%d, %d SMs, warp %d\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount, warp);
    EXPECT(cc_major == prop.major && warp == 32 && prop.maxThreadsPerBlock == 1024, "device properties");
    int rt = 0;
    CHECK(cudaRuntimeGetVersion(&rt));
    EXPECT(rt >= 13000, "runtime version");

    const int n = 1000;
    size_t bytes = n * sizeof(float);
    float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) h_in[i] = (float)i;
    float *d_in, *d_out, *d_copy;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMalloc(&d_copy, bytes));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_copy, d_in, bytes, cudaMemcpyDeviceToDevice));
    float hs[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    CHECK(cudaMemcpyToSymbol(cscale, hs, sizeof(hs)));
    float ht[64];
    for (int i = 0; i < 64; i++) ht[i] = 0.5f * i;
    CHECK(cudaMemcpyToSymbol(dtable, ht, sizeof(ht)));
    scale<<<(n + 127) / 128, 128>>>(d_copy, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    int good = 1;
    for (int i = 0; i < n; i++) good &= h_out[i] == h_in[i] * hs[i & 3] + ht[i & 63];
    EXPECT(good, "memcpy H2D, D2D, D2H, constant and device symbols");
    float back[4];
    CHECK(cudaMemcpyFromSymbol(back, cscale, sizeof(back)));
    EXPECT(memcmp(back, hs, sizeof(hs)) == 0, "cudaMemcpyFromSymbol");
    float *dtable_ptr = 0;
    CHECK(cudaGetSymbolAddress((void **)&dtable_ptr, dtable));
    float t5 = 0;
    CHECK(cudaMemcpy(&t5, dtable_ptr + 5, sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(t5 == 2.5f, "cudaGetSymbolAddress");
    size_t sz = 0;
    CHECK(cudaGetSymbolSize(&sz, dtable));
    EXPECT(sz == sizeof(ht), "cudaGetSymbolSize");

    int zero = 0, cnt = 0;
    CHECK(cudaMemcpyToSymbol(dcounter, &zero, sizeof(int)));
    count<<<8, 256>>>(2000);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpyFromSymbol(&cnt, dcounter, sizeof(int)));
    EXPECT(cnt == 2000, "atomicAdd on a __device__ variable");

    // memset
    int *d_i;
    CHECK(cudaMalloc(&d_i, 256 * sizeof(int)));
    CHECK(cudaMemset(d_i, 0x01, 256 * sizeof(int)));
    int h_i[256];
    CHECK(cudaMemcpy(h_i, d_i, sizeof(h_i), cudaMemcpyDeviceToHost));
    EXPECT(h_i[0] == 0x01010101 && h_i[255] == 0x01010101, "cudaMemset");

    // pitched 2D
    int w = 100, hgt = 37;
    float *d_p;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d_p, &pitch, w * sizeof(float), hgt));
    EXPECT(pitch >= w * sizeof(float) && pitch % 128 == 0, "cudaMallocPitch");
    float *h2 = (float *)malloc(w * hgt * sizeof(float));
    for (int i = 0; i < w * hgt; i++) h2[i] = (float)(i % 97);
    CHECK(cudaMemcpy2D(d_p, pitch, h2, w * sizeof(float), w * sizeof(float), hgt, cudaMemcpyHostToDevice));
    dim3 b2(32, 8), g2((w + 31) / 32, (hgt + 7) / 8);
    pitched<<<g2, b2>>>(d_p, pitch, w, hgt);
    float *h2o = (float *)malloc(w * hgt * sizeof(float));
    CHECK(cudaMemcpy2D(h2o, w * sizeof(float), d_p, pitch, w * sizeof(float), hgt, cudaMemcpyDeviceToHost));
    good = 1;
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++) good &= h2o[y * w + x] == h2[y * w + x] * 2.0f + y;
    EXPECT(good, "cudaMallocPitch + cudaMemcpy2D both ways");
    CHECK(cudaMemset2D(d_p, pitch, 0, w * sizeof(float), hgt));
    CHECK(cudaMemcpy2D(h2o, w * sizeof(float), d_p, pitch, w * sizeof(float), hgt, cudaMemcpyDeviceToHost));
    EXPECT(h2o[0] == 0.0f && h2o[w * hgt - 1] == 0.0f, "cudaMemset2D");

    // pinned memory, streams, async copies, events, callbacks
    int *pinned;
    CHECK(cudaMallocHost((void **)&pinned, 4096 * sizeof(int)));
    for (int i = 0; i < 4096; i++) pinned[i] = i;
    int *d_s;
    CHECK(cudaMalloc(&d_s, 4096 * sizeof(int)));
    cudaStream_t s[2];
    CHECK(cudaStreamCreate(&s[0]));
    CHECK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s[0]));
    for (int k = 0; k < 2; k++) {
        int off = k * 2048;
        CHECK(cudaMemcpyAsync(d_s + off, pinned + off, 2048 * sizeof(int), cudaMemcpyHostToDevice, s[k]));
        incr<<<8, 256, 0, s[k]>>>(d_s + off, 2048);
        CHECK(cudaMemcpyAsync(pinned + off, d_s + off, 2048 * sizeof(int), cudaMemcpyDeviceToHost, s[k]));
    }
    static int one = 1, ten = 10;
    CHECK(cudaStreamAddCallback(s[0], onStream, &one, 0));
    CHECK(cudaLaunchHostFunc(s[1], hostFn, &ten));
    CHECK(cudaEventRecord(stop, s[0]));
    CHECK(cudaStreamSynchronize(s[1]));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0.0f, "cudaEventElapsedTime");
    EXPECT(cudaEventQuery(stop) == cudaSuccess && cudaStreamQuery(s[0]) == cudaSuccess, "queries");
    good = 1;
    for (int i = 0; i < 4096; i++) good &= pinned[i] == i + 1;
    EXPECT(good, "streams with async copies of pinned memory");
    EXPECT(callbacks == 11, "stream callback and host function");
    for (int k = 0; k < 2; k++) CHECK(cudaStreamDestroy(s[k]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFreeHost(pinned));

    // zero-copy: mapped host memory
    int *mapped, *d_mapped;
    CHECK(cudaHostAlloc((void **)&mapped, 1024 * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < 1024; i++) mapped[i] = 2 * i;
    CHECK(cudaHostGetDevicePointer((void **)&d_mapped, mapped, 0));
    incr<<<4, 256>>>(d_mapped, 1024);
    CHECK(cudaDeviceSynchronize());
    good = 1;
    for (int i = 0; i < 1024; i++) good &= mapped[i] == 2 * i + 1;
    EXPECT(good, "zero-copy through cudaHostGetDevicePointer");
    CHECK(cudaFreeHost(mapped));

    // managed memory
    int *m;
    CHECK(cudaMallocManaged(&m, 512 * sizeof(int)));
    for (int i = 0; i < 512; i++) m[i] = 3 * i;
    incr<<<2, 256>>>(m, 512);
    CHECK(cudaDeviceSynchronize());
    good = 1;
    for (int i = 0; i < 512; i++) good &= m[i] == 3 * i + 1;
    EXPECT(good, "managed memory");
    CHECK(cudaFree(m));

    // occupancy API
    int blocksPerSm = 0, minGrid = 0, bestBlock = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, incr, 256, 0));
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, incr, 0, 0));
    printf("occupancy: %d blocks of 256 per SM; best block %d, min grid %d\n", blocksPerSm, bestBlock, minGrid);
    EXPECT(blocksPerSm == 8 && bestBlock > 0 && minGrid > 0, "occupancy API");
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, incr));
    EXPECT(attr.numRegs > 0 && attr.maxThreadsPerBlock == 1024, "cudaFuncGetAttributes");

    // errors: a bad launch configuration is reported and cleared by cudaGetLastError
    incr<<<1, 2048>>>(d_i, 1);
    cudaError_t e = cudaGetLastError();
    printf("bad launch: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    EXPECT(e != cudaSuccess, "a bad launch configuration is an error");
    EXPECT(cudaGetLastError() == cudaSuccess, "cudaGetLastError clears the error");
    EXPECT(strncmp(cudaGetErrorName(e), "cudaError", 9) == 0, "cudaGetErrorName");
    EXPECT(cudaMemcpy(h_out, (void *)0x10, 4, cudaMemcpyDeviceToHost) != cudaSuccess, "memcpy from a bad pointer fails");
    cudaGetLastError();

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_copy));
    CHECK(cudaFree(d_i));
    CHECK(cudaFree(d_p));
    CHECK(cudaFree(d_s));
    free(h_in); free(h_out); free(h2); free(h2o);
    CHECK(cudaDeviceReset());
    printf(failures == 0 ? "Test PASSED\n" : "Test FAILED (%d)\n", failures);
    return failures == 0 ? 0 : 1;
}
