// The per-thread default stream (`nvcc --default-stream per-thread`): the runtime calls become
// their `_ptsz` / `_ptds` entry points (cudaMemcpy_ptds, cudaMemcpyAsync_ptsz, cudaMemset_ptds,
// cudaEventRecord_ptsz, cudaStreamSynchronize_ptsz, cudaLaunchKernel_ptsz, ...). Two host threads
// each fill, copy in, scale, copy back and check their own buffer on their own default stream.
#include <cstdio>
#include <thread>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return false; } } while (0)

__device__ int scaleBy;

__global__ void scale(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * scaleBy + 1;
}

static bool work(int id, int *result) {
    const int n = 1 << 14;
    int *h, *d;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++) h[i] = i + id;
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, 0));
    scale<<<n / 256, 256>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaEventSynchronize(stop));
    bool ok = true;
    for (int i = 0; i < n; i++) ok &= h[i] == (i + id) * 3 + 1;
    int back;
    CHECK(cudaMemcpy(&back, d + 5, sizeof(int), cudaMemcpyDeviceToHost));
    ok &= back == (5 + id) * 3 + 1;
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    *result = ok;
    return true;
}

int main() {
    int three = 3;
    if (cudaMemcpyToSymbol(scaleBy, &three, sizeof(int)) != cudaSuccess) return 1;
    int r[2] = {0, 0};
    bool ran[2];
    std::thread a([&] { ran[0] = work(0, &r[0]); }), b([&] { ran[1] = work(7, &r[1]); });
    a.join();
    b.join();
    bool ok = ran[0] && ran[1] && r[0] && r[1];
    printf("per-thread default stream: %s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
