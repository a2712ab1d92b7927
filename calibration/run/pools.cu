// Stream-ordered allocation with memory pools: the device's default pool with a release threshold
// (the usual way to keep freed memory for reuse), a pool of its own made current and then
// allocated from directly, attributes set and read back, an allocation from each used by a kernel.
#include <cstdio>
#include <cstdint>
#include <cstring>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

int main() {
    const int n = 1 << 12;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaMemPool_t def, cur;
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    printf("current pool is the default: %d\n", cur == def);
    uint64_t keep = UINT64_MAX, back = 0;
    CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &keep));
    CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &back));
    printf("release threshold: %d\n", back == UINT64_MAX);
    int reuse = -1;
    CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    printf("opportunistic reuse: %d\n", reuse);
    int *a, h[n];
    bool ok = true;
    for (int round = 0; round < 3; round++) {
        CHECK(cudaMallocAsync(&a, n * sizeof(int), s));
        fill<<<n / 256, 256, 0, s>>>(a, n, 100 * round);
        CHECK(cudaMemcpyAsync(h, a, sizeof(h), cudaMemcpyDeviceToHost, s));
        CHECK(cudaFreeAsync(a, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < n; i++) ok &= h[i] == 100 * round + i;
    }
    // a pool of its own
    cudaMemPoolProps props;
    memset(&props, 0, sizeof(props));
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    CHECK(cudaDeviceSetMemPool(0, mine));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    printf("current pool is the new one: %d\n", cur == mine);
    int *b, *c;
    CHECK(cudaMallocAsync(&b, n * sizeof(int), s));
    CHECK(cudaMallocFromPoolAsync(&c, n * sizeof(int), def, s));
    fill<<<n / 256, 256, 0, s>>>(b, n, 7);
    fill<<<n / 256, 256, 0, s>>>(c, n, 9);
    CHECK(cudaMemcpyAsync(h, b, sizeof(h), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) ok &= h[i] == 7 + i;
    CHECK(cudaMemcpyAsync(h, c, sizeof(h), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) ok &= h[i] == 9 + i;
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaFreeAsync(c, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemPoolTrimTo(mine, 0));
    CHECK(cudaDeviceSetMemPool(0, def));
    CHECK(cudaMemPoolDestroy(mine));
    printf("pools: %s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
