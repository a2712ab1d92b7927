// Device printf's own global traffic, second set: %s strings whose lengths differ from lane to
// lane (the first set's strLanes and reportShape differ from each other in how the counts
// grow), many arguments, and a `*` width. One block per launch.
//   nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o printf2 printf2.cu
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

// lane l < n prints s[l]
__global__ void strPat(const char *const *s, int n) { if (threadIdx.x < n) printf("%s\n", s[threadIdx.x]); }
__global__ void twoStr(const char *const *s) { if (threadIdx.x == 0) printf("%s %s\n", s[0], s[1]); }
__global__ void ints20() {
    if (threadIdx.x == 0)
        printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
               11, 12, 13, 14, 15, 16, 17, 18, 19);
}
__global__ void ints31() {
    if (threadIdx.x == 0)
        printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n",
               0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
               27, 28, 29, 30);
}
__global__ void starWidth() { if (threadIdx.x == 0) printf("%*d\n", 5, 42); }
// lanes of one warp with different formats (a per-lane choice between two literals)
__global__ void twoFormats() { if (threadIdx.x < 4) printf(threadIdx.x & 1 ? "odd %d\n" : "even number %d\n", threadIdx.x); }

static const char *pool = "abcdefghijklmnopqrstuvwxyz";
int main() {
    // patterns of string lengths, one launch each
    const int pats[][33] = {
        {2, 1, 26}, {2, 1, 10}, {2, 1, 2}, {2, 2, 1}, {2, 0, 26}, {2, 26, 1}, {2, 10, 26},
        {4, 1, 10, 5, 26}, {3, 3, 3, 5}, {4, 5, 5, 5, 5}, {2, 5, 6}, {2, 5, 7}, {2, 4, 8}, {2, 3, 20},
        {32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 1, 2, 3, 4, 5, 6},
        {32, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7},
    };
    const int npat = sizeof(pats) / sizeof(pats[0]);
    char *strs;
    CK(cudaMalloc(&strs, 64 * 32));
    const char **dev;
    CK(cudaMalloc(&dev, 32 * sizeof(char *)));
    for (int p = 0; p < npat; p++) {
        int n = pats[p][0];
        // each string at its own 64-byte slot: lane l's at strs + 64 l + 3 (not sector-aligned)
        const char *ptrs[32];
        char buf[64 * 32];
        memset(buf, 0, sizeof(buf));
        for (int l = 0; l < n; l++) {
            memcpy(buf + 64 * l + 3, pool, pats[p][1 + l]);
            ptrs[l] = strs + 64 * l + 3;
        }
        CK(cudaMemcpy(strs, buf, sizeof(buf), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dev, ptrs, n * sizeof(char *), cudaMemcpyHostToDevice));
        strPat<<<1, 32>>>(dev, n);
        CK(cudaDeviceSynchronize());
    }
    twoStr<<<1, 32>>>(dev);
    ints20<<<1, 32>>>();
    ints31<<<1, 32>>>();
    starWidth<<<1, 32>>>();
    twoFormats<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    printf("printf2: Test PASSED\n");
    return 0;
}
