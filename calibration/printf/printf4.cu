// Device printf's own global traffic, fourth set: where the store count steps by 249 (a format
// of 200 characters does not, one of 600 two steps, a %s of 250 one step): formats of 200 to 232
// characters, %s strings of 200 to 232, and four lanes printing records of several steps.
// One block of 32 threads per launch.
//   nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o printf4 printf4.cu
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fmt200() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void fmt201() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij\n"); }
__global__ void fmt202() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghija\n"); }
__global__ void fmt203() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijab\n"); }
__global__ void fmt204() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc\n"); }
__global__ void fmt205() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd\n"); }
__global__ void fmt206() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcde\n"); }
__global__ void fmt207() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdef\n"); }
__global__ void fmt208() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefg\n"); }
__global__ void fmt209() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefgh\n"); }
__global__ void fmt210() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void fmt211() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij\n"); }
__global__ void fmt212() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghija\n"); }
__global__ void fmt213() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijab\n"); }
__global__ void fmt214() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc\n"); }
__global__ void fmt215() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd\n"); }
__global__ void fmt216() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcde\n"); }
__global__ void fmt217() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdef\n"); }
__global__ void fmt218() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefg\n"); }
__global__ void fmt219() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefgh\n"); }
__global__ void fmt220() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void fmt221() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij\n"); }
__global__ void fmt222() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghija\n"); }
__global__ void fmt223() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijab\n"); }
__global__ void fmt224() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc\n"); }
__global__ void fmt225() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd\n"); }
__global__ void fmt226() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcde\n"); }
__global__ void fmt227() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdef\n"); }
__global__ void fmt228() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefg\n"); }
__global__ void fmt229() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefgh\n"); }
__global__ void fmt230() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void fmt231() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij\n"); }
__global__ void fmt232() { if (threadIdx.x == 0) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghija\n"); }
__global__ void fmt600lanes4() { if (threadIdx.x < 4) printf("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi\n"); }
__global__ void strLen(const char *s) { if (threadIdx.x == 0) printf("%s\n", s); }
__global__ void strLanes4(const char *s, int stride) { if (threadIdx.x < 4) printf("%s\n", s + stride * threadIdx.x); }
__global__ void intsStr(const char *s) { if (threadIdx.x == 0) printf("%d %d %d %d %s\n", 1, 2, 3, 4, s); }

int main() {
    char *s;
    CK(cudaMalloc(&s, 4096));
    char buf[4096];
    for (int i = 0; i < 4096; i++) buf[i] = 'a' + i % 26;
    fmt200<<<1, 32>>>();
    fmt201<<<1, 32>>>();
    fmt202<<<1, 32>>>();
    fmt203<<<1, 32>>>();
    fmt204<<<1, 32>>>();
    fmt205<<<1, 32>>>();
    fmt206<<<1, 32>>>();
    fmt207<<<1, 32>>>();
    fmt208<<<1, 32>>>();
    fmt209<<<1, 32>>>();
    fmt210<<<1, 32>>>();
    fmt211<<<1, 32>>>();
    fmt212<<<1, 32>>>();
    fmt213<<<1, 32>>>();
    fmt214<<<1, 32>>>();
    fmt215<<<1, 32>>>();
    fmt216<<<1, 32>>>();
    fmt217<<<1, 32>>>();
    fmt218<<<1, 32>>>();
    fmt219<<<1, 32>>>();
    fmt220<<<1, 32>>>();
    fmt221<<<1, 32>>>();
    fmt222<<<1, 32>>>();
    fmt223<<<1, 32>>>();
    fmt224<<<1, 32>>>();
    fmt225<<<1, 32>>>();
    fmt226<<<1, 32>>>();
    fmt227<<<1, 32>>>();
    fmt228<<<1, 32>>>();
    fmt229<<<1, 32>>>();
    fmt230<<<1, 32>>>();
    fmt231<<<1, 32>>>();
    fmt232<<<1, 32>>>();
    fmt600lanes4<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    // %s of 200 to 232 characters (the string at a 256-byte boundary)
    for (int n = 200; n <= 232; n++) {
        char c = buf[n];
        buf[n] = 0;
        CK(cudaMemcpy(s, buf, n + 1, cudaMemcpyHostToDevice));
        strLen<<<1, 32>>>(s);
        CK(cudaDeviceSynchronize());
        buf[n] = c;
    }
    // the same with four ints before it (32 bytes more arguments)
    for (int n = 170; n <= 200; n += 2) {
        char c = buf[n];
        buf[n] = 0;
        CK(cudaMemcpy(s, buf, n + 1, cudaMemcpyHostToDevice));
        intsStr<<<1, 32>>>(s);
        CK(cudaDeviceSynchronize());
        buf[n] = c;
    }
    // four lanes, each its own string of 300 characters (two steps each), 512 bytes apart
    for (int l = 0; l < 4; l++) buf[512 * l + 300] = 0;
    CK(cudaMemcpy(s, buf, 4096, cudaMemcpyHostToDevice));
    strLanes4<<<1, 32>>>(s, 512);
    CK(cudaDeviceSynchronize());
    printf("printf4: Test PASSED\n");
    return 0;
}
