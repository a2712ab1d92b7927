// Host memory at addresses a Linux process can get from mmap anywhere below 2^47 (here the
// 0x7d00..., 0x7e00... and 0x7f00... ranges, where address-space randomisation puts mmap'ed
// buffers now and then), registered with cudaHostRegister as mapped memory and read and written by
// a kernel through cudaHostGetDevicePointer (zero-copy). Under warpscope run the host memory is
// mirrored at its own address, so this checks that no such address is refused or confused with
// the emulator's own address windows.
#include <cstdio>
#include <sys/mman.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void twice(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 2 * p[i] + 1;
}

int main() {
    const int n = 4096;
    const size_t bytes = n * sizeof(int);
    const unsigned long long at[] = {0x7d0040000000ull, 0x7e0040000000ull, 0x7f0040000000ull};
    int ok = 0;
    for (unsigned long long a : at) {
        void *m = mmap((void *)a, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m == MAP_FAILED || (unsigned long long)m != a) {
            printf("mmap at %#llx failed\n", a);
            return 2;
        }
        int *h = (int *)m;
        for (int i = 0; i < n; i++) h[i] = i;
        CHECK(cudaHostRegister(h, bytes, cudaHostRegisterMapped));
        int *d;
        CHECK(cudaHostGetDevicePointer((void **)&d, h, 0));
        twice<<<n / 256, 256>>>(d, n);
        CHECK(cudaDeviceSynchronize());
        bool good = true;
        for (int i = 0; i < n; i++) good &= h[i] == 2 * i + 1;
        printf("host memory at %#llx: %s\n", a, good ? "correct" : "WRONG");
        ok += good;
        CHECK(cudaHostUnregister(h));
        munmap(m, bytes);
    }
    printf(ok == 3 ? "Test PASSED\n" : "Test FAILED\n");
    return ok == 3 ? 0 : 1;
}
