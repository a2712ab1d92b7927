// Runs this folder's Triton cubins (loaded with the driver's cuModuleLoadData, reached through
// cudaGetDriverEntryPointByVersion) and the CuTe GEMMs of cute/gemms.cu (compiled in), each once,
// on inputs from the deterministic generator below, and prints per kernel and output buffer the
// FNV-1a 64 hash of its bytes:   hopper_run CUBIN_DIR OUT.bin [KERNEL]
// (OUT.bin: every output buffer, in print order). crates/cli/tests/hopper_kernels.rs regenerates
// the same inputs.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>
#include "../cute/gemms.cu"

static decltype(&cuModuleLoadData) pLoad;
static decltype(&cuModuleGetFunction) pGetFn;
static decltype(&cuLaunchKernel) pLaunch;
static decltype(&cuFuncSetAttribute) pSetAttr;
static decltype(&cuTensorMapEncodeTiled) pEncode;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAILED %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define CKD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { printf("FAILED %s: CUresult %d (line %d)\n", #x, (int)r_, __LINE__); exit(1);} } while (0)

// value i of input `seed`: k/256 with k in [-1000, 1000] (exact in fp16 and f32)
static float gen(uint32_t seed, uint32_t i) {
  uint32_t h = i * 2654435761u ^ seed * 0x9E3779B9u;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
  return (float)((int)(h % 2001u) - 1000) / 256.0f;
}
static std::vector<uint8_t> f32buf(uint32_t seed, size_t n) {
  std::vector<uint8_t> b(n * 4);
  for (size_t i = 0; i < n; ++i) { float v = gen(seed, (uint32_t)i); memcpy(&b[i * 4], &v, 4); }
  return b;
}
static std::vector<uint8_t> f16buf(uint32_t seed, size_t n) {
  std::vector<uint8_t> b(n * 2);
  for (size_t i = 0; i < n; ++i) { __half v = __float2half_rn(gen(seed, (uint32_t)i)); memcpy(&b[i * 2], &v, 2); }
  return b;
}
static uint64_t fnv(const std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) { h ^= c; h *= 0x100000001b3ull; }
  return h;
}

struct Buf { void* d; size_t n; bool out; };
static FILE* g_out;
static std::vector<Buf> g_bufs;
static void* input(const std::vector<uint8_t>& b) {
  void* d; CK(cudaMalloc(&d, b.size())); CK(cudaMemcpy(d, b.data(), b.size(), cudaMemcpyHostToDevice));
  g_bufs.push_back({d, b.size(), false}); return d;
}
static void* output(size_t n) {
  void* d; CK(cudaMalloc(&d, n)); CK(cudaMemset(d, 0, n)); g_bufs.push_back({d, n, true}); return d;
}
static void finish(const char* name) {
  CK(cudaDeviceSynchronize());
  int k = 0;
  for (size_t i = 0; i < g_bufs.size(); ++i) {
    if (g_bufs[i].out) {
      std::vector<uint8_t> h(g_bufs[i].n);
      CK(cudaMemcpy(h.data(), g_bufs[i].d, h.size(), cudaMemcpyDeviceToHost));
      printf("%s\targ%zu\t%zu\t%016llx\n", name, i, h.size(), (unsigned long long)fnv(h));
      fwrite(h.data(), 1, h.size(), g_out);
      ++k;
    }
    CK(cudaFree(g_bufs[i].d));
  }
  g_bufs.clear();
  fflush(stdout);
}

static std::string g_dir;
static CUfunction load(const char* file, const char* sym, int shared) {
  std::string path = g_dir + "/" + file;
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) { printf("FAILED open %s\n", path.c_str()); exit(1); }
  std::vector<char> img; char buf[65536]; size_t r;
  while ((r = fread(buf, 1, sizeof buf, f)) > 0) img.insert(img.end(), buf, buf + r);
  fclose(f);
  CUmodule m; CUfunction fn;
  CKD(pLoad(&m, img.data()));
  CKD(pGetFn(&fn, m, sym));
  if (shared > 48 * 1024) CKD(pSetAttr(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
  return fn;
}
static void launch(CUfunction fn, dim3 g, int threads, int shared, std::vector<void*> args) {
  CKD(pLaunch(fn, g.x, g.y, g.z, threads, 1, 1, shared, 0, args.data(), nullptr));
}
// a 2-D fp16 tensor map, inner dimension first, 128-byte swizzle
static CUtensorMap map2d(void* base, uint64_t inner, uint64_t outer, uint32_t box_inner, uint32_t box_outer) {
  CUtensorMap m;
  cuuint64_t dims[2] = {inner, outer};
  cuuint64_t strides[1] = {inner * 2};
  cuuint32_t box[2] = {box_inner, box_outer};
  cuuint32_t es[2] = {1, 1};
  CKD(pEncode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return m;
}

static bool want(const char* only, const char* name) { return !only || !strcmp(only, name); }

int main(int argc, char** argv) {
  if (argc < 3) { printf("usage: hopper_run CUBIN_DIR OUT.bin [KERNEL]\n"); return 2; }
  g_dir = argv[1];
  g_out = fopen(argv[2], "wb");
  const char* only = argc > 3 ? argv[3] : nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaFree(0));
  CK(cudaGetDriverEntryPointByVersion("cuModuleLoadData", (void**)&pLoad, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuModuleGetFunction", (void**)&pGetFn, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", (void**)&pLaunch, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuFuncSetAttribute", (void**)&pSetAttr, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&pEncode, 12000, cudaEnableDefault, &q));
  void* z = nullptr;  // Triton's global/profile scratch pointers when unused
  if (want(only, "vadd")) {
    int n = 4000;
    void *x = input(f32buf(1, n)), *y = input(f32buf(2, n)), *o = output(n * 4);
    launch(load("vadd.cubin", "vadd", 0), dim3(4), 128, 0, {&x, &y, &o, &n, &z, &z});
    finish("vadd");
  }
  if (want(only, "softmax")) {
    int rows = 16, cols = 200, st = 200;
    void *o = output(rows * cols * 4), *x = input(f32buf(3, rows * cols));
    launch(load("softmax.cubin", "softmax_rows", 16), dim3(8), 128, 16, {&o, &x, &st, &st, &rows, &cols, &z, &z});
    finish("softmax");
  }
  if (want(only, "layernorm")) {
    int rows = 8, n = 300; float eps = 1e-5f;
    void *x = input(f16buf(4, rows * n)), *y = output(rows * n * 2), *w = input(f16buf(5, n)), *b = input(f16buf(6, n));
    void *mo = output(rows * 4), *ro = output(rows * 4);
    launch(load("layernorm.cubin", "layernorm_rows", 16), dim3(8), 128, 16, {&x, &y, &w, &b, &mo, &ro, &n, &n, &eps, &z, &z});
    finish("layernorm");
  }
  for (int w8 = 0; w8 < 2; ++w8) {
    const char* name = w8 ? "matmul_w8" : "matmul_w4";
    if (!want(only, name)) continue;
    int M = 128, N = 128, K = 128;
    int shared = w8 ? 16384 : 8192;
    void *a = input(f16buf(7, M * K)), *b = input(f16buf(8, K * N)), *c = output(M * N * 2);
    std::string file = std::string(name) + ".cubin";
    launch(load(file.c_str(), "matmul_f16", shared), dim3(w8 ? 2 : 4), w8 ? 256 : 128, shared,
           {&a, &b, &c, &M, &N, &K, &K, &N, &N, &z, &z});
    finish(name);
  }
  if (want(only, "dropout")) {
    int n = 4000, seed = 1234; float p = 0.25f;
    void *x = input(f32buf(9, n)), *o = output(n * 4);
    launch(load("dropout.cubin", "dropout_seeded", 0), dim3(4), 128, 0, {&x, &o, &n, &p, &seed, &z, &z});
    finish("dropout");
  }
  int H = 2, S = 128, D = 64; float scale = 0.125f;
  if (want(only, "attn_ptr")) {
    int sh = S * D, ss = D;
    void *q = input(f16buf(10, H * S * D)), *k = input(f16buf(11, H * S * D)), *v = input(f16buf(12, H * S * D));
    void* o = output(H * S * D * 2);
    launch(load("attn_ptr.cubin", "attn_ptr", 16384), dim3(2, 2), 128, 16384, {&q, &k, &v, &o, &scale, &S, &sh, &ss, &z, &z});
    finish("attn_ptr");
  }
  if (want(only, "attn_desc_host")) {
    void *q = input(f16buf(10, H * S * D)), *k = input(f16buf(11, H * S * D)), *v = input(f16buf(12, H * S * D));
    void* o = output(H * S * D * 2);
    CUtensorMap mq = map2d(q, D, H * S, 64, 64), mk = map2d(k, D, H * S, 64, 64), mv = map2d(v, D, H * S, 64, 64),
                mo = map2d(o, D, H * S, 64, 64);
    int rows = H * S, d = D; long long sr = D, one = 1;
    launch(load("attn_desc_host.cubin", "attn_desc_host", 40992), dim3(2, 2), 128, 40992,
           {&mq, &rows, &d, &sr, &one, &mk, &rows, &d, &sr, &one, &mv, &rows, &d, &sr, &one, &mo, &rows, &d, &sr, &one,
            &scale, &S, &z, &z});
    finish("attn_desc_host");
  }
  if (want(only, "attn_desc_dev")) {
    void *q = input(f16buf(10, H * S * D)), *k = input(f16buf(11, H * S * D)), *v = input(f16buf(12, H * S * D));
    void* o = output(H * S * D * 2);
    void* scratch; CK(cudaMalloc(&scratch, 512 * 4));
    launch(load("attn_desc_dev.cubin", "attn_desc_dev", 40992), dim3(2, 2), 128, 40992,
           {&q, &k, &v, &o, &scale, &S, &H, &scratch, &z});
    finish("attn_desc_dev");
    CK(cudaFree(scratch));
  }
  if (want(only, "matmul_tma")) {
    int M = 128, N = 128, K = 128;
    void *a = input(f16buf(13, M * K)), *b = input(f16buf(14, N * K)), *c = output(M * N * 2);
    CUtensorMap ma = map2d(a, K, M, 64, 64), mb = map2d(b, K, N, 64, 64), mc = map2d(c, N, M, 64, 64);
    long long sk = K, sn = N, one = 1;
    launch(load("matmul_tma.cubin", "matmul_tma_persistent", 57368), dim3(3), 128, 57368,
           {&ma, &M, &K, &sk, &one, &mb, &N, &K, &sk, &one, &mc, &M, &N, &sn, &one, &M, &N, &K, &z, &z});
    finish("matmul_tma");
  }
  {
    int M = 128, N = 128, K = 128;
    if (want(only, "gemm_sm80")) {
      half_t *a = (half_t*)input(f16buf(15, M * K)), *b = (half_t*)input(f16buf(16, N * K)), *c = (half_t*)output(M * N * 2);
      gemm_sm80<<<dim3(2, 2), 128>>>(M, N, K, a, b, c); CK(cudaGetLastError());
      finish("gemm_sm80");
    }
    if (want(only, "gemm_sm80_ca4")) {
      half_t *a = (half_t*)input(f16buf(15, M * K)), *b = (half_t*)input(f16buf(16, N * K)), *c = (half_t*)output(M * N * 2);
      gemm_sm80_ca4<<<dim3(2, 2), 128>>>(M, N, K, a, b, c); CK(cudaGetLastError());
      finish("gemm_sm80_ca4");
    }
    int sm = (128 * 64 + 64 * 64) * 2;
    if (want(only, "gemm_wgmma")) {
      half_t *a = (half_t*)input(f16buf(15, M * K)), *b = (half_t*)input(f16buf(16, N * K)), *c = (half_t*)output(M * N * 2);
      gemm_wgmma<<<dim3(1, 2), 128, sm>>>(M, N, K, a, b, c); CK(cudaGetLastError());
      finish("gemm_wgmma");
    }
    if (want(only, "gemm_wgmma_tma")) {
      half_t *a = (half_t*)input(f16buf(15, M * K)), *b = (half_t*)input(f16buf(16, N * K)), *c = (half_t*)output(M * N * 2);
      CUtensorMap ma = map2d(a, K, M, 64, 64), mb = map2d(b, K, N, 64, 64);
      gemm_wgmma_tma<<<dim3(1, 2), 128, sm>>>(ma, mb, M, N, K, c); CK(cudaGetLastError());
      finish("gemm_wgmma_tma");
    }
  }
  fclose(g_out);
  printf("DONE\n");
  return 0;
}
