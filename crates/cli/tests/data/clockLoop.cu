// A kernel that waits on the clock (as a timing demo does): how often its loop runs is the GPU's
// timing, so warpscope labels its branch counters estimates (the loop touches no shared memory and
// loads or stores no global memory: the shared and global counters stay exact).
#include <cstdio>
__global__ void spinFor(long long *out, long long cycles) {
    long long start = clock64(), now = start;
    while (now - start < cycles) now = clock64();
    out[threadIdx.x] = now - start >= cycles;
}
int main() {
    long long *d, h[32];
    cudaMalloc(&d, sizeof(h));
    spinFor<<<1, 32>>>(d, 1000);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < 32; i++) ok &= h[i] == 1;
    printf("clock loop: %s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
