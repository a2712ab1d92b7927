// Branch microbenchmarks: one kernel per control-flow shape, built -O2 -lineinfo, each launched
// with inputs chosen so that counting rules disagree (PTX-level count, machine code counted once per
// line, unrolled loops). The program checks its own results against the CPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t e = (call);                                                      \
        if (e != cudaSuccess) {                                                      \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

// if/else with one assignment per side: ptxas predicates it.
__global__ void bShortIfElse(float *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    if (t % 2) v = 3.0f; else v = 5.0f;
    out[t] = v;
}

// if/else with loads and long arithmetic on each side: kept as branches.
__global__ void bLongIfElse(float *out, const float *in) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[t];
    if (t % 4 < 2) {
        for (int k = 0; k < 8; k++) v = v * v * 0.5f + in[(t + k) & 1023];
        out[t] = v;
    } else {
        for (int k = 0; k < 8; k++) v = v * 0.25f - in[(t * 3 + k) & 1023];
        out[t + 1024] = v;
    }
}

// a guard only: becomes @P EXIT.
__global__ void bGuard(float *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) out[t] = 2.0f * t;
}

// a loop with a per-thread trip count (0..7): ptxas unrolls it.
__global__ void bLoopData(float *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 1.0f;
    for (int i = 0; i < (sel[t] & 7); i++) v = v * 1.5f + 1.0f;
    out[t] = v;
}

// a loop with a trip count from a parameter (uniform).
__global__ void bLoopParam(float *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = t;
    for (int i = 0; i < n; i++) v = v * 0.5f + 1.0f;
    out[t] = v;
}

// a constant trip count: unrolled completely.
__global__ void bLoopConst(float *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = t;
    for (int i = 0; i < 16; i++) v = v * 0.5f + i;
    out[t] = v;
}

// a constant trip count not unrolled.
__global__ void bLoopNoUnroll(float *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = t;
#pragma unroll 1
    for (int i = 0; i < 10; i++) v = v * 0.5f + i;
    out[t] = v;
}

// grid-stride loop.
__global__ void bGridStride(float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = i * 0.5f;
}

// neighbored reduction with the stride loop on blockDim.
__global__ void bReduceStride(const int *in, int *out) {
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// interleaved reduction unrolled by hand, then a warp of shuffles.
__global__ void bReduceShfl(const int *in, int *out) {
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) s[tid] += s[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        int v = s[tid] + s[tid + 32];
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
        if (tid == 0) out[blockIdx.x] = v;
    }
}

// a loop left by break on a data-dependent condition.
__global__ void bBreak(int *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = sel[t], k = 0;
    while (true) {
        x = x * 3 + 1;
        if (x > 100) break;
        k++;
    }
    out[t] = k;
}

// a while loop with a data-dependent trip count (Collatz steps).
__global__ void bWhile(int *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = sel[t] + 1, k = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        k++;
    }
    out[t] = k;
}

// nested ifs with stores inside.
__global__ void bNested(int *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = sel[t];
    if (x % 2 == 0) {
        if (x % 3 == 0) {
            out[t] = x * 7;
        } else {
            out[t] = x + 11;
        }
    } else if (t % 64 < 32) {
        out[t] = -x;
    } else {
        out[t] = 0;
    }
}

// an early return in the middle.
__global__ void bEarlyReturn(float *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = 1.0f;
    if (sel[t] % 3 == 0) return;
    float v = sel[t];
    for (int k = 0; k < 4; k++) v = v * 1.25f + 0.5f;
    out[t] = v;
}

// a switch with four cases.
__global__ void bSwitch(int *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    switch (sel[t] & 3) {
    case 0: out[t] = t * 3; break;
    case 1: out[t] = sel[(t + 1) & 1023] - 4; break;
    case 2: out[t] = sel[(t + 7) & 1023] ^ 5; break;
    default: out[t] = 99; break;
    }
}

// a barrier inside a branch that is uniform per block.
__global__ void bSyncInBranch(int *out) {
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    if (blockIdx.x % 2 == 0) {
        s[tid] = tid;
        __syncthreads();
        out[blockIdx.x * blockDim.x + tid] = s[255 - tid];
    } else {
        out[blockIdx.x * blockDim.x + tid] = -1;
    }
}

// a shuffle loop with a data-dependent trip count per warp.
__global__ void bShflLoop(int *out, const int *sel) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = sel[t];
    int rounds = (blockIdx.x % 5) + 1;
    for (int r = 0; r < rounds; r++) v += __shfl_xor_sync(0xffffffff, v, r & 31);
    out[t] = v;
}

static int collatz(unsigned x) { int k = 0; while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; k++; } return k; }

int main() {
    const int n = 1024;
    float *df, *din, *hf = (float *)malloc(2 * n * sizeof(float)), *hin = (float *)malloc(n * sizeof(float));
    int *di, *dsel, *hi = (int *)malloc(n * sizeof(int)), *hsel = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&df, 2 * n * sizeof(float)));
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&di, n * sizeof(int)));
    CHECK(cudaMalloc(&dsel, n * sizeof(int)));
    for (int i = 0; i < n; i++) { hsel[i] = (i * 7 + i / 5) % 13 + (i / 96); hin[i] = (i % 17) * 0.125f; }
    CHECK(cudaMemcpy(dsel, hsel, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(din, hin, n * sizeof(float), cudaMemcpyHostToDevice));
    int ok = 1;
#define GETF(cnt) CHECK(cudaMemcpy(hf, df, (cnt) * sizeof(float), cudaMemcpyDeviceToHost))
#define GETI() CHECK(cudaMemcpy(hi, di, n * sizeof(int), cudaMemcpyDeviceToHost))
    bShortIfElse<<<4, 256>>>(df); GETF(n);
    for (int i = 0; i < n; i++) ok &= hf[i] == (i % 2 ? 3.0f : 5.0f);
    bLongIfElse<<<4, 256>>>(df, din); GETF(2 * n);
    bGuard<<<4, 256>>>(df, 1000); GETF(n);
    for (int i = 0; i < 1000; i++) ok &= hf[i] == 2.0f * i;
    bLoopData<<<4, 256>>>(df, dsel); GETF(n);
    for (int i = 0; i < n; i++) { float v = 1.0f; for (int k = 0; k < (hsel[i] & 7); k++) v = v * 1.5f + 1.0f; ok &= hf[i] == v; }
    int trips[] = {0, 1, 3, 4, 5, 8, 17};
    for (int n2 : trips) {
        bLoopParam<<<2, 128>>>(df, n2); GETF(256);
        for (int i = 0; i < 256; i++) { float v = i; for (int k = 0; k < n2; k++) v = v * 0.5f + 1.0f; ok &= hf[i] == v; }
    }
    bLoopConst<<<4, 256>>>(df); GETF(n);
    bLoopNoUnroll<<<4, 256>>>(df); GETF(n);
    bGridStride<<<2, 128>>>(df, 1000); GETF(1000);
    for (int i = 0; i < 1000; i++) ok &= hf[i] == i * 0.5f;
    bGridStride<<<3, 128>>>(df, 1000); GETF(1000);
    bReduceStride<<<4, 256>>>(dsel, di); GETI();
    for (int b = 0; b < 4; b++) { int s = 0; for (int i = 0; i < 256; i++) s += hsel[b * 256 + i]; ok &= hi[b] == s; }
    bReduceStride<<<8, 128>>>(dsel, di); GETI();
    bReduceShfl<<<4, 256>>>(dsel, di); GETI();
    for (int b = 0; b < 4; b++) { int s = 0; for (int i = 0; i < 256; i++) s += hsel[b * 256 + i]; ok &= hi[b] == s; }
    bBreak<<<4, 256>>>(di, dsel); GETI();
    for (int i = 0; i < n; i++) { int x = hsel[i], k = 0; while (true) { x = x * 3 + 1; if (x > 100) break; k++; } ok &= hi[i] == k; }
    bWhile<<<4, 256>>>(di, dsel); GETI();
    for (int i = 0; i < n; i++) ok &= hi[i] == collatz(hsel[i] + 1);
    bNested<<<4, 256>>>(di, dsel); GETI();
    bEarlyReturn<<<4, 256>>>(df, dsel); GETF(n);
    bSwitch<<<4, 256>>>(di, dsel); GETI();
    for (int i = 0; i < n; i++) {
        int w = (hsel[i] & 3) == 0 ? i * 3 : (hsel[i] & 3) == 1 ? hsel[(i + 1) & 1023] - 4 : (hsel[i] & 3) == 2 ? (hsel[(i + 7) & 1023] ^ 5) : 99;
        ok &= hi[i] == w;
    }
    bSyncInBranch<<<4, 256>>>(di); GETI();
    bShflLoop<<<4, 256>>>(di, dsel); GETI();
    printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
