// Device printf's own global traffic, third set: 13 to 32 arguments (the store count changes
// its rule between 12 and 20), doubles, formats and %s strings of hundreds of characters.
// One block of 32 threads per launch, lane 0 prints.
//   nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o printf3 printf3.cu
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void ints13() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12); }
__global__ void ints14() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13); }
__global__ void ints15() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14); }
__global__ void ints16() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
__global__ void ints17() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16); }
__global__ void ints18() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17); }
__global__ void ints19() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18); }
__global__ void ints20() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19); }
__global__ void ints24() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23); }
__global__ void ints28() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27); }
__global__ void ints32() { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31); }
__global__ void dbl1() { if (threadIdx.x == 0) printf("%.1f\n", 0.5); }
__global__ void dbl4() { if (threadIdx.x == 0) printf("%.1f %.1f %.1f %.1f\n", 0.5, 1.5, 2.5, 3.5); }
__global__ void dbl13() { if (threadIdx.x == 0) printf("%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5); }
__global__ void dbl20() { if (threadIdx.x == 0) printf("%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5); }
__global__ void mix16() { if (threadIdx.x == 0) printf("%d %.1f %d %.1f %d %.1f %d %.1f %d %.1f %d %.1f %d %.1f %d %.1f\n", 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5); }
__global__ void fmt200() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void fmt600() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void strLen(const char *s) { if (threadIdx.x == 0) printf("%s\n", s); }
__global__ void ints12str(const char *s) { if (threadIdx.x == 0) printf("%d %d %d %d %d %d %d %d %d %d %d %d %s\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, s); }

int main() {
    char *s;
    CK(cudaMalloc(&s, 1024));
    char buf[1024];
    for (int i = 0; i < 1024; i++) buf[i] = 'a' + i % 26;
    ints13<<<1, 32>>>();
    ints14<<<1, 32>>>();
    ints15<<<1, 32>>>();
    ints16<<<1, 32>>>();
    ints17<<<1, 32>>>();
    ints18<<<1, 32>>>();
    ints19<<<1, 32>>>();
    ints20<<<1, 32>>>();
    ints24<<<1, 32>>>();
    ints28<<<1, 32>>>();
    ints32<<<1, 32>>>();
    dbl1<<<1, 32>>>();
    dbl4<<<1, 32>>>();
    dbl13<<<1, 32>>>();
    dbl20<<<1, 32>>>();
    mix16<<<1, 32>>>();
    fmt200<<<1, 32>>>();
    fmt600<<<1, 32>>>();
    // %s strings of 100, 250 and 600 characters, 4-byte aligned
    for (int n : {100, 250, 600}) {
        buf[n] = 0;
        CK(cudaMemcpy(s, buf, n + 1, cudaMemcpyHostToDevice));
        strLen<<<1, 32>>>(s);
        CK(cudaDeviceSynchronize());
        buf[n] = 'a' + n % 26;
    }
    buf[7] = 0;
    CK(cudaMemcpy(s, buf, 8, cudaMemcpyHostToDevice));
    ints12str<<<1, 32>>>(s);
    CK(cudaDeviceSynchronize());
    printf("printf3: Test PASSED\n");
    return 0;
}
