// A persistent-thread kernel: a fixed grid of warps takes tasks of very different sizes (Collatz
// path lengths over ranges) from a global queue by one atomicAdd a warp (warp-aggregated, the
// leader chosen by __activemask/__ffs and the slot broadcast by __shfl_sync), folds each task's
// result into per-bucket totals with 16-bit atomicCAS (unsigned short) and a float maximum by an
// atomicCAS loop on the bits; a spin lock with __nanosleep backoff guards a small global log of
// the longest task seen. Every result is independent of the GPU's order and checked against the
// host. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

struct Task { unsigned start, count; };

__host__ __device__ unsigned collatz(unsigned long long v) {
  unsigned steps = 0;
  while (v != 1) { v = (v & 1) ? 3 * v + 1 : v >> 1; ++steps; }
  return steps;
}

__device__ float atomicMaxFloat(float *addr, float v) {
  int *a = (int *)addr;
  int old = *a;
  while (__int_as_float(old) < v) {
    int assumed = old;
    old = atomicCAS(a, assumed, __float_as_int(v));
    if (old == assumed) break;
  }
  return __int_as_float(old);
}

// adds d to a 16-bit counter (wrapping) by a CAS loop on the halfword
__device__ void atomicAddU16(unsigned short *addr, unsigned short d) {
  unsigned short old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, (unsigned short)(assumed + d));
  } while (old != assumed);
}

__device__ int lock = 0;

__global__ void persistent(const Task *tasks, int ntasks, int *next, unsigned long long *sum, unsigned short *buckets,
                           float *maxRatio, unsigned *best) {
  int lane = threadIdx.x & 31;
  while (true) {
    // one atomic a warp: the leader takes 32 tasks
    unsigned mask = __activemask();
    int leader = __ffs(mask) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(next, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    int t = base + __popc(mask & ((1u << lane) - 1));
    if (base >= ntasks) break;
    if (t < ntasks) {
      Task k = tasks[t];
      unsigned long long total = 0;
      unsigned longest = 0, arg = 0;
      for (unsigned v = k.start; v < k.start + k.count; ++v) {
        unsigned c = collatz(v);
        total += c;
        if (c > longest) { longest = c; arg = v; }
      }
      atomicAdd(sum, total);
      atomicAddU16(&buckets[longest % 64], (unsigned short)(1 + (total & 0xff)));
      atomicMaxFloat(maxRatio, (float)longest / (float)k.count);
      // the longest path and its start under a lock (ties to the smaller start)
      if (longest >= best[0]) {
        int backoff = 32;
        while (atomicCAS(&lock, 0, 1) != 0) { __nanosleep(backoff); backoff = min(backoff * 2, 1024); }
        __threadfence();
        volatile unsigned *vb = best;
        if (longest > vb[0] || (longest == vb[0] && arg < vb[1])) { vb[0] = longest; vb[1] = arg; }
        __threadfence();
        atomicExch(&lock, 0);
      }
    }
  }
}

int main() {
  const int ntasks = 6000;
  std::vector<Task> h(ntasks);
  unsigned s = 77, start = 1;
  for (int i = 0; i < ntasks; ++i) {
    s = s * 1664525u + 1013904223u;
    unsigned c = (s >> 28) == 0 ? 200 + (s >> 8) % 300 : 1 + (s >> 8) % 24;  // a few big tasks
    h[i] = {start, c};
    start += c;
  }
  Task *dT; int *dN; unsigned long long *dS; unsigned short *dB; float *dM; unsigned *dBest;
  CK(cudaMalloc(&dT, ntasks * sizeof(Task))); CK(cudaMalloc(&dN, 4)); CK(cudaMalloc(&dS, 8));
  CK(cudaMalloc(&dB, 64 * 2)); CK(cudaMalloc(&dM, 4)); CK(cudaMalloc(&dBest, 8));
  CK(cudaMemcpy(dT, h.data(), ntasks * sizeof(Task), cudaMemcpyHostToDevice));
  CK(cudaMemset(dN, 0, 4)); CK(cudaMemset(dS, 0, 8)); CK(cudaMemset(dB, 0, 128));
  CK(cudaMemset(dM, 0, 4)); CK(cudaMemset(dBest, 0, 8));
  persistent<<<66, 128>>>(dT, ntasks, dN, dS, dB, dM, dBest);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned long long sum; unsigned short b[64]; float mr; unsigned best[2]; int next;
  CK(cudaMemcpy(&sum, dS, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b, dB, 128, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&mr, dM, 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(best, dBest, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&next, dN, 4, cudaMemcpyDeviceToHost));
  unsigned long long es = 0;
  unsigned short eb[64] = {0};
  float em = 0;
  unsigned ebest[2] = {0, 0};
  for (int i = 0; i < ntasks; ++i) {
    unsigned long long total = 0;
    unsigned longest = 0, arg = 0;
    for (unsigned v = h[i].start; v < h[i].start + h[i].count; ++v) {
      unsigned c = collatz(v);
      total += c;
      if (c > longest) { longest = c; arg = v; }
    }
    es += total;
    eb[longest % 64] += (unsigned short)(1 + (total & 0xff));
    em = fmaxf(em, (float)longest / (float)h[i].count);
    if (longest > ebest[0] || (longest == ebest[0] && arg < ebest[1])) { ebest[0] = longest; ebest[1] = arg; }
  }
  bool ok = sum == es && mr == em && best[0] == ebest[0] && best[1] == ebest[1];
  unsigned long long bc = 0;
  for (int k = 0; k < 64; ++k) { ok &= b[k] == eb[k]; bc = bc * 131 + b[k]; }
  printf("persistent: %d tasks over %u numbers, sum %llu (host %llu), bucket checksum %llx, max ratio %.6f, longest %u at %u\n",
         ntasks, start - 1, sum, es, bc, mr, best[0], best[1]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
