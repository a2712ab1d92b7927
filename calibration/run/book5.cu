// Warp-shuffle shapes of the book's chapter 5, written for this project: a broadcast, a wrap-around
// shift, up/down/xor with segment widths, an xor butterfly over an int4 held in registers, a swap
// of array elements between lanes where the element index is computed at run time (the array
// lives in local memory), and a shuffle reduction. Built -O2 -lineinfo; every result is checked on
// the host ("Test PASSED").
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define FULL 0xffffffffu

__global__ void broadcastLane(const int *in, int *out, int src) {
    int v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(FULL, v, src, 16);
}

__global__ void rotateLanes(const int *in, int *out, int by) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(FULL, v, lane + by, 32);
}

__global__ void shiftModes(const int *in, int *out, int width) {
    int v = in[threadIdx.x];
    int t = threadIdx.x;
    out[t] = __shfl_up_sync(FULL, v, 3, width);
    out[t + blockDim.x] = __shfl_down_sync(FULL, v, 5, width);
    out[t + 2 * blockDim.x] = __shfl_xor_sync(FULL, v, 6, width);
}

// an int4 per lane; each component exchanged with the lane at an xor distance, mixing components
__global__ void butterflyInt4(const int4 *in, int4 *out, int mask) {
    int4 v = in[threadIdx.x];
    int4 w;
    w.x = __shfl_xor_sync(FULL, v.y, mask);
    w.y = __shfl_xor_sync(FULL, v.x, mask);
    w.z = __shfl_xor_sync(FULL, v.w, mask);
    w.w = __shfl_xor_sync(FULL, v.z, mask);
    out[threadIdx.x] = w;
}

// each lane holds SEG consecutive elements; lanes of a pair swap element a (first of the pair)
// with element b (second of the pair), the indices chosen at run time
#define SEG 4
__device__ __noinline__ void swapBetween(int *arr, int lane, int a, int b, int mask) {
    bool first = (lane & mask) == 0;
    int idx = first ? a : b;  // the first lane gives and takes element a, its partner element b
    arr[idx] = __shfl_xor_sync(FULL, arr[idx], mask);
}

__global__ void swapElements(const int *in, int *out, int a, int b, int mask) {
    int arr[SEG];
    int base = threadIdx.x * SEG;
    for (int i = 0; i < SEG; i++) arr[i] = in[base + i];
    swapBetween(arr, threadIdx.x & 31, a, b, mask);
    for (int i = 0; i < SEG; i++) out[base + i] = arr[i];
}

__inline__ __device__ int warpSum(int v) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(FULL, v, d);
    return v;
}

__global__ void shuffleReduce(const int *in, int *partial, int n) {
    __shared__ int perWarp[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warpSum(v);
    if (lane == 0) perWarp[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? perWarp[lane] : 0;
    if (warp == 0) v = warpSum(v);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

static int failures = 0;
static void expect(bool ok, const char *what) {
    printf("%-40s %s\n", what, ok ? "ok" : "MISMATCH");
    if (!ok) failures++;
}

int main() {
    const int T = 64;
    int hin[T * SEG], hout[3 * T * SEG];
    for (int i = 0; i < T * SEG; i++) hin[i] = i * 3 + 1;
    int *din, *dout;
    CK(cudaMalloc(&din, sizeof hin));
    CK(cudaMalloc(&dout, sizeof hout));
    CK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));

    broadcastLane<<<1, T>>>(din, dout, 5);
    CK(cudaMemcpy(hout, dout, T * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < T; t++) ok &= hout[t] == hin[(t & ~15) + 5];
    expect(ok, "broadcast of lane 5 in 16-lane segments");

    rotateLanes<<<1, T>>>(din, dout, 3);
    CK(cudaMemcpy(hout, dout, T * 4, cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < T; t++) ok &= hout[t] == hin[(t & ~31) + ((t & 31) + 3) % 32];
    expect(ok, "wrap-around shift by 3");

    for (int width : {8, 16, 32}) {
        shiftModes<<<1, T>>>(din, dout, width);
        CK(cudaMemcpy(hout, dout, 3 * T * 4, cudaMemcpyDeviceToHost));
        ok = true;
        for (int t = 0; t < T; t++) {
            int seg = t & ~(width - 1), l = t & (width - 1);
            ok &= hout[t] == hin[l >= 3 ? t - 3 : t];
            ok &= hout[T + t] == hin[l + 5 < width ? t + 5 : t];
            ok &= hout[2 * T + t] == hin[seg + (l ^ 6) % width];
        }
        char what[64]; snprintf(what, sizeof what, "up/down/xor at width %d", width); expect(ok, what);
    }

    int4 hv[T], hw[T];
    for (int t = 0; t < T; t++) hv[t] = make_int4(t, 100 + t, 200 + t, 300 + t);
    int4 *dv, *dw;
    CK(cudaMalloc(&dv, sizeof hv)); CK(cudaMalloc(&dw, sizeof hw));
    CK(cudaMemcpy(dv, hv, sizeof hv, cudaMemcpyHostToDevice));
    for (int mask : {1, 16}) {
        butterflyInt4<<<1, T>>>(dv, dw, mask);
        CK(cudaMemcpy(hw, dw, sizeof hw, cudaMemcpyDeviceToHost));
        ok = true;
        for (int t = 0; t < T; t++) {
            int4 s = hv[t ^ mask];
            ok &= hw[t].x == s.y && hw[t].y == s.x && hw[t].z == s.w && hw[t].w == s.z;
        }
        char what[64]; snprintf(what, sizeof what, "int4 butterfly, mask %d", mask); expect(ok, what);
    }

    swapElements<<<1, T>>>(din, dout, 0, 3, 1);
    CK(cudaMemcpy(hout, dout, T * SEG * 4, cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < T; t++) {
        int p = t ^ 1;
        for (int i = 0; i < SEG; i++) {
            int want = hin[t * SEG + i];
            if ((t & 1) == 0 && i == 0) want = hin[p * SEG + 3];
            if ((t & 1) == 1 && i == 3) want = hin[p * SEG + 0];
            ok &= hout[t * SEG + i] == want;
        }
    }
    expect(ok, "swap of elements 0 and 3 between lanes");

    const int n = 100000;
    int *h = (int *)malloc(n * 4);
    long long want = 0;
    for (int i = 0; i < n; i++) { h[i] = (i % 19) - 9; want += h[i]; }
    int *dd, *dp;
    int blocks = (n + 255) / 256;
    CK(cudaMalloc(&dd, n * 4)); CK(cudaMalloc(&dp, blocks * 4));
    CK(cudaMemcpy(dd, h, n * 4, cudaMemcpyHostToDevice));
    shuffleReduce<<<blocks, 256>>>(dd, dp, n);
    int *hp = (int *)malloc(blocks * 4);
    CK(cudaMemcpy(hp, dp, blocks * 4, cudaMemcpyDeviceToHost));
    long long got = 0;
    for (int b = 0; b < blocks; b++) got += hp[b];
    printf("shuffle reduction %lld (host %lld)\n", got, want);
    expect(got == want, "shuffle reduction");

    CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(dv)); CK(cudaFree(dw));
    CK(cudaFree(dd)); CK(cudaFree(dp));
    free(h); free(hp);
    printf(failures ? "Test FAILED\n" : "Test PASSED\n");
    return failures ? 1 : 0;
}
