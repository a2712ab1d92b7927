// Device printf's own global-memory traffic, which Nsight Compute counts in a kernel's global
// load and store requests and sectors: one launch per shape, varying the format's length, the
// arguments (count, types, %s strings and their lengths), the lanes that print and the warps.
//   nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o printf printf.cu
//   ncu --csv --metrics <global counters> ./printf       (calibration/printf/measure.sh)
// Each kernel's name says its shape; main launches them in order with one block each.
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

// the format's length alone (no arguments), one lane
__global__ void fmt2() { if (threadIdx.x == 0) printf("a\n"); }
__global__ void fmt8() { if (threadIdx.x == 0) printf("abcdefg\n"); }
__global__ void fmt9() { if (threadIdx.x == 0) printf("abcdefgh\n"); }
__global__ void fmt16() { if (threadIdx.x == 0) printf("abcdefghijklmno\n"); }
__global__ void fmt17() { if (threadIdx.x == 0) printf("abcdefghijklmnop\n"); }
__global__ void fmt40() { if (threadIdx.x == 0) printf("abcdefghijklmnopqrstuvwxyz0123456789ABC\n"); }
__global__ void fmt100() {
    if (threadIdx.x == 0)
        printf("abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvw\n");
}
// lanes that print the same format
__global__ void lanes2() { if (threadIdx.x < 2) printf("abcdefg\n"); }
__global__ void lanes4() { if (threadIdx.x < 4) printf("abcdefg\n"); }
__global__ void lanes32() { printf("abcdefg\n"); }
__global__ void lanes32fmt40() { printf("abcdefghijklmnopqrstuvwxyz0123456789ABC\n"); }
// warps: 2 and 4 warps of 32 lanes, 2 warps of one lane each
__global__ void warps2() { printf("abcdefg\n"); }
__global__ void warps4() { printf("abcdefg\n"); }
__global__ void warps2one() { if (threadIdx.x % 32 == 0) printf("abcdefg\n"); }
// integer arguments, one lane
__global__ void p_int1() { if (threadIdx.x == 0) printf("%d\n", (int)threadIdx.x); }
__global__ void p_int2() { if (threadIdx.x == 0) printf("%d %d\n", (int)threadIdx.x, 7); }
__global__ void p_int4() { if (threadIdx.x == 0) printf("%d %d %d %d\n", (int)threadIdx.x, 7, 8, 9); }
__global__ void p_int12() {
    if (threadIdx.x == 0)
        printf("%d %d %d %d %d %d %d %d %d %d %d %d\n", (int)threadIdx.x, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
}
__global__ void p_int4lanes32() { printf("%d %d %d %d\n", (int)threadIdx.x, 7, 8, 9); }
// other argument types, one lane
__global__ void p_long1() { if (threadIdx.x == 0) printf("%lld\n", (long long)threadIdx.x + (1ll << 40)); }
__global__ void p_double1() { if (threadIdx.x == 0) printf("%f\n", threadIdx.x + 0.5); }
__global__ void p_ptr1(const int *p) { if (threadIdx.x == 0) printf("%p\n", p); }
__global__ void p_char1() { if (threadIdx.x == 0) printf("%c\n", 'A' + threadIdx.x); }
// %s strings of several lengths, one lane, and lanes printing strings of different lengths
__global__ void str0() { if (threadIdx.x == 0) printf("%s\n", ""); }
__global__ void str5() { if (threadIdx.x == 0) printf("%s\n", "small"); }
__global__ void str8() { if (threadIdx.x == 0) printf("%s\n", "abcdefgh"); }
__global__ void str20() { if (threadIdx.x == 0) printf("%s\n", "abcdefghijklmnopqrst"); }
__global__ void str2x5() { if (threadIdx.x == 0) printf("%s %s\n", "small", "large"); }
__global__ void strLanes(const char *const *s) { if (threadIdx.x < 4) printf("%s\n", s[threadIdx.x]); }
// the shapes of calibration/run/book.cu's two printing kernels
__global__ void checkIndexShape() {
    printf("threadIdx:(%d, %d, %d) blockIdx:(%d, %d, %d) blockDim:(%d, %d, %d) gridDim:(%d, %d, %d)\n",
           threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, blockDim.x, blockDim.y,
           blockDim.z, gridDim.x, gridDim.y, gridDim.z);
}
__global__ void reportShape(const float *v, int n) {
    if (threadIdx.x < n) printf("v[%d] = %6.2f (%s)\n", threadIdx.x, v[threadIdx.x], v[threadIdx.x] > 1.0f ? "big" : "small");
}
// two printf calls in one kernel, and one in a loop
__global__ void twoCalls() { if (threadIdx.x == 0) { printf("abcdefg\n"); printf("%d\n", 5); } }
__global__ void loop3() { if (threadIdx.x == 0) for (int i = 0; i < 3; i++) printf("%d\n", i); }

int main() {
    int *p;
    CK(cudaMalloc(&p, 64));
    const char *host[4] = {"a", "abcdefghij", "abcde", "abcdefghijklmnopqrstuvwxyz"};
    char *strs;
    CK(cudaMalloc(&strs, 64));
    const char **dev;
    CK(cudaMalloc(&dev, 4 * sizeof(char *)));
    const char *ptrs[4];
    int off = 0;
    for (int i = 0; i < 4; i++) {
        int n = (int)strlen(host[i]) + 1;
        CK(cudaMemcpy(strs + off, host[i], n, cudaMemcpyHostToDevice));
        ptrs[i] = strs + off;
        off += n;
    }
    CK(cudaMemcpy(dev, ptrs, sizeof(ptrs), cudaMemcpyHostToDevice));
    float hv[4] = {0.5f, 1.5f, 2.25f, 0.75f}, *dv;
    CK(cudaMalloc(&dv, sizeof(hv)));
    CK(cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice));
    fmt2<<<1, 32>>>();
    fmt8<<<1, 32>>>();
    fmt9<<<1, 32>>>();
    fmt16<<<1, 32>>>();
    fmt17<<<1, 32>>>();
    fmt40<<<1, 32>>>();
    fmt100<<<1, 32>>>();
    lanes2<<<1, 32>>>();
    lanes4<<<1, 32>>>();
    lanes32<<<1, 32>>>();
    lanes32fmt40<<<1, 32>>>();
    warps2<<<1, 64>>>();
    warps4<<<1, 128>>>();
    warps2one<<<1, 64>>>();
    p_int1<<<1, 32>>>();
    p_int2<<<1, 32>>>();
    p_int4<<<1, 32>>>();
    p_int12<<<1, 32>>>();
    p_int4lanes32<<<1, 32>>>();
    p_long1<<<1, 32>>>();
    p_double1<<<1, 32>>>();
    p_ptr1<<<1, 32>>>(p);
    p_char1<<<1, 32>>>();
    str0<<<1, 32>>>();
    str5<<<1, 32>>>();
    str8<<<1, 32>>>();
    str20<<<1, 32>>>();
    str2x5<<<1, 32>>>();
    strLanes<<<1, 32>>>(dev);
    checkIndexShape<<<dim3(2, 1), dim3(2, 2)>>>();
    reportShape<<<1, 4>>>(dv + 1, 3);
    twoCalls<<<1, 32>>>();
    loop3<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    printf("printf: Test PASSED\n");
    return 0;
}
