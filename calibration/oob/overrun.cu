// Off-by-one overruns of small cudaMalloc buffers (they land in mapped slack or in the next
// buffer, as on the GPU) and accesses past a large buffer's last 2 MiB page (a fault).
// Usage: overrun small | overrun far | overrun big OFFSET | overrun at K OFFSET SIZE...
//        overrun fill COUNT SIZE | overrun reuse
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = in[i] * 2.0f + 1.0f;  // off by one: thread n reads in[n], writes out[n]
}
__global__ void peek(const int *p, long long idx, int *res) { *res = p[idx]; }

static void report(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", what, cudaGetErrorName(e));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "small";
  if (!strcmp(mode, "small")) {
    const int n = 100;
    float *a, *b;
    int *c, *d, *res;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    cudaMalloc(&c, 512);
    cudaMalloc(&d, 16);
    cudaMalloc(&res, 16);
    printf("b-a %lld c-b %lld d-c %lld res-d %lld\n", (long long)((char *)b - (char *)a),
           (long long)((char *)c - (char *)b), (long long)((char *)d - (char *)c),
           (long long)((char *)res - (char *)d));
    float h[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    cudaMemcpy(a, h, n * 4, cudaMemcpyHostToDevice);
    int hd[4] = {41, 42, 43, 44};
    cudaMemcpy(d, hd, 16, cudaMemcpyHostToDevice);
    scale<<<1, 128>>>(a, b, n);
    report("scale");
    cudaMemcpy(h, b, n * 4, cudaMemcpyDeviceToHost);
    printf("b[0] %g b[99] %g\n", h[0], h[99]);
    peek<<<1, 1>>>((const int *)b, n, res);  // the overrun's write landed in b's slack
    peek<<<1, 1>>>(c, 128, res + 1);         // one past c (512 bytes) is d[0]
    report("peek");
    int hr[2] = {-1, -1};
    cudaMemcpy(hr, res, 8, cudaMemcpyDeviceToHost);
    printf("b[100] bits 0x%08x c[128] %d\n", hr[0], hr[1]);
    return 0;
  }
  if (!strcmp(mode, "far")) {  // 4 MiB past a 4-byte buffer: mapped on the H200
    int *p, *res;
    cudaMalloc(&p, 4);
    cudaMalloc(&res, 4);
    cudaMemset(res, 0xff, 4);
    peek<<<1, 1>>>(p, (4 + (4 << 20)) / 4, res);
    report("far");
    int v = -1;
    cudaMemcpy(&v, res, 4, cudaMemcpyDeviceToHost);
    printf("value %d\n", v);
    return 0;
  }
  if (!strcmp(mode, "big") && argc > 2) {  // OFFSET bytes past the end of a 3 MiB buffer
    long long off = strtoll(argv[2], 0, 0);
    int *p, *res;
    cudaMalloc(&p, 3 << 20);
    cudaMalloc(&res, 4);
    cudaMemset(res, 0xff, 4);
    peek<<<1, 1>>>(p, ((3 << 20) + off) / 4, res);
    report("big");
    peek<<<1, 1>>>(p, 0, res);
    report("after");
    return 0;
  }
  if (!strcmp(mode, "at") && argc > 4) {  // allocate SIZE..., read 4 bytes at alloc K + OFFSET
    int k = atoi(argv[2]);
    long long off = strtoll(argv[3], 0, 0);
    char *ps[64];
    int m = 0;
    for (int i = 4; i < argc && m < 64; i++) cudaMalloc(&ps[m++], strtoull(argv[i], 0, 0));
    int *res;
    cudaMalloc(&res, 4);
    peek<<<1, 1>>>((const int *)(ps[k] + off), 0, res);
    cudaError_t e = cudaDeviceSynchronize();
    printf("k %d off %+lld -> %s base %p res %p first %p\n", k, off, cudaGetErrorName(e), ps[k],
           res, ps[0]);
    return 0;
  }
  if (!strcmp(mode, "fill") && argc > 3) {  // COUNT allocations of SIZE: print where runs break
    int count = atoi(argv[2]);
    size_t size = strtoull(argv[3], 0, 0);
    char *prev = 0;
    for (int i = 0; i < count; i++) {
      char *p;
      cudaMalloc(&p, size);
      if (!prev || p - prev != (long long)((size + 511) / 512 * 512))
        printf("alloc %d at %p (delta %lld)\n", i, p, prev ? (long long)(p - prev) : 0LL);
      prev = p;
    }
    return 0;
  }
  if (!strcmp(mode, "reuse")) {  // where allocations go after cudaFree
    char *a, *b, *c, *d, *e, *f, *g;
    cudaMalloc(&a, 4);
    cudaMalloc(&b, 1000);
    cudaMalloc(&c, 4);
    cudaFree(b);
    cudaMalloc(&d, 4);
    cudaMalloc(&e, 1000);
    printf("a %p b %p c %p | after free(b): d %p (d-a %lld) e %p (e-a %lld)\n", a, b, c, d,
           (long long)(d - a), e, (long long)(e - a));
    cudaMalloc(&f, 3 << 20);
    cudaFree(f);
    cudaMalloc(&g, 3 << 20);
    printf("3 MiB %p freed, next 3 MiB %p\n", f, g);
    return 0;
  }
  return 2;
}
