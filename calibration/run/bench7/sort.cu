// Sorting networks and a radix split in the shapes of the classic "sortingNetworks" and radix-sort
// samples (own code): a bitonic sort of key/value pairs whose 1024-element chunks are sorted in
// shared memory (alternate directions), then merged by global-memory steps for strides past the
// chunk and shared-memory steps below it; Batcher's odd-even merge sort of 1024-element chunks in
// shared memory (its data-dependent partner test); and a block-local LSD radix sort of 512 keys by
// 1-bit splits (__syncthreads_count for the zero count, a shared-memory scan of the flags).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

constexpr unsigned CHUNK = 1024;  // elements a block sorts in shared memory (2 a thread)

__device__ __forceinline__ void cmpSwap(unsigned& ka, unsigned& va, unsigned& kb, unsigned& vb, bool up) {
  if ((ka > kb) == up) {
    unsigned t = ka;
    ka = kb;
    kb = t;
    t = va;
    va = vb;
    vb = t;
  }
}

// sorts each chunk: ascending for even chunks, descending for odd (a bitonic sequence of pairs)
__global__ void bitonicShared(unsigned* key, unsigned* val) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  unsigned base = blockIdx.x * CHUNK, t = threadIdx.x;
  sk[t] = key[base + t];
  sv[t] = val[base + t];
  sk[t + CHUNK / 2] = key[base + t + CHUNK / 2];
  sv[t + CHUNK / 2] = val[base + t + CHUNK / 2];
  bool odd = blockIdx.x & 1;
  for (unsigned size = 2; size <= CHUNK; size <<= 1) {
    bool up = (((t & (size / 2)) != 0) == odd);
    if (size == CHUNK) up = !odd;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned p = 2 * t - (t & (stride - 1));
      cmpSwap(sk[p], sv[p], sk[p + stride], sv[p + stride], up);
    }
  }
  __syncthreads();
  key[base + t] = sk[t];
  val[base + t] = sv[t];
  key[base + t + CHUNK / 2] = sk[t + CHUNK / 2];
  val[base + t + CHUNK / 2] = sv[t + CHUNK / 2];
}

// one merge step with a stride past the chunk, through global memory
__global__ void bitonicGlobal(unsigned* key, unsigned* val, unsigned n, unsigned size, unsigned stride) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;  // comparator
  if (c >= n / 2) return;
  unsigned p = 2 * c - (c & (stride - 1));
  bool up = (p & size) == 0;
  if (size >= n) up = true;
  unsigned ka = key[p], kb = key[p + stride], va = val[p], vb = val[p + stride];
  cmpSwap(ka, va, kb, vb, up);
  key[p] = ka;
  key[p + stride] = kb;
  val[p] = va;
  val[p + stride] = vb;
}

// the merge steps with strides below the chunk, in shared memory
__global__ void bitonicMergeShared(unsigned* key, unsigned* val, unsigned n, unsigned size) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  unsigned base = blockIdx.x * CHUNK, t = threadIdx.x;
  sk[t] = key[base + t];
  sv[t] = val[base + t];
  sk[t + CHUNK / 2] = key[base + t + CHUNK / 2];
  sv[t + CHUNK / 2] = val[base + t + CHUNK / 2];
  bool up = (base & size) == 0 || size >= n;
  for (unsigned stride = CHUNK / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned p = 2 * t - (t & (stride - 1));
    cmpSwap(sk[p], sv[p], sk[p + stride], sv[p + stride], up);
  }
  __syncthreads();
  key[base + t] = sk[t];
  val[base + t] = sv[t];
  key[base + t + CHUNK / 2] = sk[t + CHUNK / 2];
  val[base + t + CHUNK / 2] = sv[t + CHUNK / 2];
}

// Batcher's odd-even merge sort of each chunk, ascending
__global__ void oddEvenShared(unsigned* key) {
  __shared__ unsigned s[CHUNK];
  unsigned base = blockIdx.x * CHUNK, t = threadIdx.x;
  s[t] = key[base + t];
  s[t + CHUNK / 2] = key[base + t + CHUNK / 2];
  for (unsigned size = 2; size <= CHUNK; size <<= 1) {
    unsigned stride = size / 2;
    unsigned off = t & (stride - 1);
    {
      __syncthreads();
      unsigned p = 2 * t - off;
      unsigned a = s[p], b = s[p + stride];
      if (a > b) {
        s[p] = b;
        s[p + stride] = a;
      }
      stride >>= 1;
    }
    for (; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned p = 2 * t - (t & (stride - 1));
      // in the odd-even merge only comparators past the first stride of each half compare
      if ((t & (size / 2 - 1)) >= stride) {
        unsigned q = p - stride;
        unsigned a = s[q], b = s[q + stride];
        if (a > b) {
          s[q] = b;
          s[q + stride] = a;
        }
      }
    }
  }
  __syncthreads();
  key[base + t] = s[t];
  key[base + t + CHUNK / 2] = s[t + CHUNK / 2];
}

constexpr unsigned RT = 512;  // radix sort: one key a thread
__global__ void radixBlock(unsigned* key, unsigned bits) {
  __shared__ unsigned s[RT], scan[RT];
  unsigned t = threadIdx.x, base = blockIdx.x * RT;
  unsigned k = key[base + t];
  for (unsigned b = 0; b < bits; ++b) {
    unsigned one = (k >> b) & 1u;
    unsigned zeros = __syncthreads_count(!one);
    // inclusive scan of the ones (Hillis-Steele, double-buffered by a sync between read and write)
    scan[t] = one;
    __syncthreads();
    for (unsigned d = 1; d < RT; d <<= 1) {
      unsigned v = t >= d ? scan[t - d] : 0u;
      __syncthreads();
      scan[t] += v;
      __syncthreads();
    }
    unsigned onesBefore = scan[t] - one;
    unsigned dst = one ? zeros + onesBefore : t - onesBefore;
    s[dst] = k;
    __syncthreads();
    k = s[t];
    __syncthreads();
  }
  key[base + t] = k;
}

int main() {
  const unsigned n = 1u << 16;
  unsigned *hk = (unsigned*)malloc(n * 4), *hv = (unsigned*)malloc(n * 4), *ok_k = (unsigned*)malloc(n * 4),
           *ok_v = (unsigned*)malloc(n * 4);
  unsigned x = 88172645u;
  for (unsigned i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    hk[i] = x % 50000u;  // duplicates
    hv[i] = i;
  }
  unsigned *dk, *dv;
  CHECK(cudaMalloc(&dk, n * 4));
  CHECK(cudaMalloc(&dv, n * 4));
  bool ok = true;

  // bitonic over the whole array
  CHECK(cudaMemcpy(dk, hk, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, hv, n * 4, cudaMemcpyHostToDevice));
  int launches = 1;
  bitonicShared<<<n / CHUNK, CHUNK / 2>>>(dk, dv);
  for (unsigned size = 2 * CHUNK; size <= n; size <<= 1) {
    for (unsigned stride = size / 2; stride >= CHUNK; stride >>= 1) {
      bitonicGlobal<<<(n / 2 + 255) / 256, 256>>>(dk, dv, n, size, stride);
      ++launches;
    }
    bitonicMergeShared<<<n / CHUNK, CHUNK / 2>>>(dk, dv, n, size);
    ++launches;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ok_k, dk, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ok_v, dv, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  unsigned long long sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (i && ok_k[i - 1] > ok_k[i]) ++bad;
    if (hk[ok_v[i]] != ok_k[i]) ++bad;  // the value still names its key
    sum = sum * 1000003ull + ok_v[i];
  }
  printf("bitonic: %u keys, %d launches, %d wrong, first %u last %u, order checksum %llx\n", n, launches, bad,
         ok_k[0], ok_k[n - 1], sum);
  ok = ok && !bad;

  // odd-even merge sort of each chunk
  CHECK(cudaMemcpy(dk, hk, n * 4, cudaMemcpyHostToDevice));
  oddEvenShared<<<n / CHUNK, CHUNK / 2>>>(dk);
  CHECK(cudaMemcpy(ok_k, dk, n * 4, cudaMemcpyDeviceToHost));
  bad = 0;
  sum = 0;
  for (unsigned c = 0; c < n / CHUNK; ++c) {
    unsigned long long a = 0, b = 0;
    for (unsigned i = 0; i < CHUNK; ++i) {
      unsigned j = c * CHUNK + i;
      if (i && ok_k[j - 1] > ok_k[j]) ++bad;
      a += hk[j];
      b += ok_k[j];
    }
    if (a != b) ++bad;
    sum = sum * 31 + ok_k[c * CHUNK + CHUNK / 2];
  }
  printf("odd-even: %u chunks, %d wrong, medians checksum %llx\n", n / CHUNK, bad, sum);
  ok = ok && !bad;

  // radix sort of each 512-key block by 16 bits
  CHECK(cudaMemcpy(dk, hk, n * 4, cudaMemcpyHostToDevice));
  radixBlock<<<n / RT, RT>>>(dk, 16);
  CHECK(cudaMemcpy(ok_k, dk, n * 4, cudaMemcpyDeviceToHost));
  bad = 0;
  sum = 0;
  for (unsigned c = 0; c < n / RT; ++c) {
    unsigned long long a = 0, b = 0;
    for (unsigned i = 0; i < RT; ++i) {
      unsigned j = c * RT + i;
      // sorted by the low 16 bits, stable
      if (i && (ok_k[j - 1] & 0xffff) > (ok_k[j] & 0xffff)) ++bad;
      a += hk[j];
      b += ok_k[j];
    }
    if (a != b) ++bad;
    sum = sum * 31 + ok_k[c * RT + 7];
  }
  printf("radix: %u blocks, %d wrong, checksum %llx\n", n / RT, bad, sum);
  ok = ok && !bad;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
