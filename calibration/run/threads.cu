// Host threads using the runtime at once: each of 8 threads owns a stream, a device buffer and a
// pinned host buffer, and repeatedly fills the host buffer, copies it in, launches a kernel on its
// own stream, copies back and checks -- while the other threads' kernels run. Under an emulator
// that keeps pinned memory mirrored in its global space, a launch must not write back bytes it did
// not change (that would undo another thread's fill), and `<<<>>>`'s configuration is per thread.
#include <cstdio>
#include <thread>
#include <vector>

__global__ void addId(int *data, int n, int id) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += id + 1;
}

static bool work(int id, int rounds, int n) {
  cudaStream_t s;
  int *d = nullptr, *h = nullptr;
  bool ok = cudaStreamCreate(&s) == cudaSuccess && cudaMalloc(&d, n * sizeof(int)) == cudaSuccess &&
            cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocPortable) == cudaSuccess;
  for (int r = 0; ok && r < rounds; ++r) {
    for (int i = 0; i < n; ++i) h[i] = i * 3 + r;
    cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s);
    addId<<<(n + 255) / 256, 256, 0, s>>>(d, n, id);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    ok = cudaStreamSynchronize(s) == cudaSuccess;
    for (int i = 0; ok && i < n; ++i) ok = h[i] == i * 3 + r + id + 1;
    if (!ok) printf("thread %d round %d: wrong result\n", id, r);
  }
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
  return ok;
}

int main() {
  const int threads = 8, rounds = 16, n = 1 << 16;
  std::vector<char> ok(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { ok[t] = work(t, rounds, n); });
  for (auto &t : pool) t.join();
  int good = 0;
  for (char o : ok) good += o;
  printf("%d of %d threads correct\n", good, threads);
  printf(good == threads ? "Test PASSED\n" : "Test FAILED\n");
  return good == threads ? 0 : 1;
}
