// Warp collectives, some of which ptxas guards with a `BRA.DIV` convergence check (where it cannot
// prove the warp converged: twoLevel's second pass, loopShfl's loop), some not (loopBallot,
// reduxMatch), in one program with its own checks. Built -O2 -lineinfo like the others; measured
// under ncu to back the rule: one uniform branch target per warp-level execution of the guarded
// collective.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ int warpSum(int v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// the second pass of a two-level reduction: only warp 0 reduces the partial sums
__global__ void twoLevel(const int *in, int *out) {
    __shared__ int part[32];
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = warpSum(v);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) part[warp] = v;
    __syncthreads();
    // the load is conditional on the thread before the warp test: ptxas cannot prove warp 1
    // converged at the shuffles
    v = threadIdx.x % 32 < blockDim.x / 32 ? part[lane] : 0;
    if (warp == 1) v = warpSum(v);
    if (threadIdx.x == 32) out[blockIdx.x] = v;
}

// shuffles in a loop whose trip count is data (uniform per warp, 0 to 3 rounds)
__global__ void loopShfl(const int *in, int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid] & 15;
    for (int r = 0; r < (in[tid & ~31] & 3); r++) v = warpSum(v) + r;
    out[tid] = v;
}

// a ballot and a shuffle in a data-dependent loop whose trip count is uniform per warp
__global__ void loopBallot(const int *in, int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int rounds = (in[tid & ~31] & 3) + 1;  // the same for the whole warp
    unsigned acc = 0;
    for (int r = 0; r < rounds; r++) {
        unsigned b = __ballot_sync(0xffffffffu, (in[tid] >> r) & 1);
        acc += __popc(b) + __shfl_sync(0xffffffffu, (int)b, r);
    }
    out[tid] = acc;
}

// a warp-level add reduction (REDUX) and a match under a uniform condition per warp
__global__ void reduxMatch(const int *in, int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[tid];
    int r = 0;
    if ((tid / 32) % 3 != 1) {
        r = __reduce_add_sync(0xffffffffu, x & 255);
        r += __popc(__match_any_sync(0xffffffffu, x & 7));
    }
    out[tid] = r;
}

int main() {
    const int blocks = 64, threads = 256, n = blocks * threads;
    int *h = (int *)malloc(n * sizeof(int)), *hout = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = (i * 2654435761u) >> 7 & 1023;
    int *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    bool ok = true;

    twoLevel<<<blocks, threads>>>(din, dout);
    CHECK(cudaMemcpy(hout, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int s = 0;
        for (int i = 0; i < threads; i++) s += h[b * threads + i];
        ok &= hout[b] == s;
    }
    printf("twoLevel: %s\n", ok ? "ok" : "WRONG");

    loopShfl<<<blocks, threads>>>(din, dout);
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w = 0; w < n / 32 && ok; w++) {
        int rounds = h[w * 32] & 3;
        int vals[32];
        for (int l = 0; l < 32; l++) vals[l] = h[w * 32 + l] & 15;
        for (int r = 0; r < rounds; r++) {
            int s = 0;
            for (int l = 0; l < 32; l++) s += vals[l];
            for (int l = 0; l < 32; l++) vals[l] = s + r;
        }
        for (int l = 0; l < 32; l++) ok &= hout[w * 32 + l] == vals[l];
    }
    printf("loopShfl: %s\n", ok ? "ok" : "WRONG");

    loopBallot<<<blocks, threads>>>(din, dout);
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w = 0; w < n / 32 && ok; w++) {
        int rounds = (h[w * 32] & 3) + 1;
        for (int l = 0; l < 32; l++) {
            unsigned acc = 0;
            for (int r = 0; r < rounds; r++) {
                unsigned b = 0;
                for (int k = 0; k < 32; k++) b |= (unsigned)((h[w * 32 + k] >> r) & 1) << k;
                acc += __builtin_popcount(b) + b;
            }
            ok &= (unsigned)hout[w * 32 + l] == acc;
        }
    }
    printf("loopBallot: %s\n", ok ? "ok" : "WRONG");

    reduxMatch<<<blocks, threads>>>(din, dout);
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w = 0; w < n / 32 && ok; w++) {
        int sum = 0;
        for (int l = 0; l < 32; l++) sum += h[w * 32 + l] & 255;
        for (int l = 0; l < 32; l++) {
            int want = 0;
            if (w % 3 != 1) {
                int same = 0;
                for (int k = 0; k < 32; k++) same += (h[w * 32 + k] & 7) == (h[w * 32 + l] & 7);
                want = sum + same;
            }
            ok &= hout[w * 32 + l] == want;
        }
    }
    printf("reduxMatch: %s\n", ok ? "ok" : "WRONG");
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    free(h);
    free(hout);
    return ok ? 0 : 1;
}
