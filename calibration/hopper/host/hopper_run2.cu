// Runs the second set of Triton cubins (gen_triton2.py) as its launches.tsv says, each once, and
// prints per kernel and output buffer the FNV-1a 64 hash of its bytes:
//   hopper_run2 DIR OUT.bin [KERNEL]     (DIR: the cubins and launches.tsv; OUT.bin: every output
//   buffer's bytes, in print order). crates/cudart/tests/hopper_triton2.rs reads the same table.
//
// launches.tsv columns: name, symbol, grid x,y,z, block, shared bytes, buffers, parameters.
// Buffer tokens (space-separated; the hash h(seed, i) is hopper_run.cu's generator before its
// modulus):
//   f32:S:N  f16:S:N  bf16:S:N   N values k/256, k in [-1000, 1000] (bf16: rounded to nearest even)
//   e4m3:S:N  e5m2:S:N           N bytes (h % 0x70 | sign) and (h % 0x48 | sign), sign = bit 20 of h
//   i8:S:N                       N bytes h & 0xff
//   imod:S:N:MOD                 N int32 h % MOD
//   out:BYTES                    an output: zeroed, hashed and written after the launch
//   zero:BYTES                   zeroed, not compared
// Parameter tokens: p:I (buffer I's address), null, i32:V, i64:V, f32:V, scratch:BYTES (a zeroed
// scratch buffer), map:I:DT:INNER:OUTER:BOXI:BOXO (a 2-D tensor map over buffer I, DT f16, bf16, u8
// or f32, 128-byte swizzle, the 128-byte CUtensorMap passed by value).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>
#include <sstream>

static decltype(&cuModuleLoadData) pLoad;
static decltype(&cuModuleGetFunction) pGetFn;
static decltype(&cuLaunchKernel) pLaunch;
static decltype(&cuFuncSetAttribute) pSetAttr;
static decltype(&cuTensorMapEncodeTiled) pEncode;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAILED %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define CKD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { printf("FAILED %s: CUresult %d (line %d)\n", #x, (int)r_, __LINE__); exit(1);} } while (0)

static uint32_t hash(uint32_t seed, uint32_t i) {
  uint32_t h = i * 2654435761u ^ seed * 0x9E3779B9u;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
  return h;
}
static float gen(uint32_t seed, uint32_t i) { return (float)((int)(hash(seed, i) % 2001u) - 1000) / 256.0f; }
static uint16_t f16bits(float v) {  // exact for k/256, |k| <= 1000
  if (v == 0.0f) return 0;
  uint32_t b; memcpy(&b, &v, 4);
  return (uint16_t)(((b >> 16) & 0x8000) | ((((b >> 23) & 0xff) - 127 + 15) << 10) | ((b >> 13) & 0x3ff));
}
static uint16_t bf16bits(float v) {
  uint32_t b; memcpy(&b, &v, 4);
  return (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}
static uint64_t fnv(const std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) { h ^= c; h *= 0x100000001b3ull; }
  return h;
}
static std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> r; std::string t; std::istringstream in(s);
  while (std::getline(in, t, c)) if (!t.empty()) r.push_back(t);
  return r;
}

static std::vector<uint8_t> make(const std::string& tok, bool* out) {
  std::vector<std::string> f = split(tok, ':');
  *out = f[0] == "out";
  if (f[0] == "out" || f[0] == "zero") return std::vector<uint8_t>(strtoull(f[1].c_str(), 0, 10), 0);
  uint32_t seed = (uint32_t)strtoul(f[1].c_str(), 0, 10);
  size_t n = strtoull(f[2].c_str(), 0, 10);
  std::vector<uint8_t> b;
  for (size_t i = 0; i < n; ++i) {
    uint32_t h = hash(seed, (uint32_t)i);
    if (f[0] == "f32") { float v = gen(seed, i); b.insert(b.end(), (uint8_t*)&v, (uint8_t*)&v + 4); }
    else if (f[0] == "f16") { uint16_t v = f16bits(gen(seed, i)); b.insert(b.end(), (uint8_t*)&v, (uint8_t*)&v + 2); }
    else if (f[0] == "bf16") { uint16_t v = bf16bits(gen(seed, i)); b.insert(b.end(), (uint8_t*)&v, (uint8_t*)&v + 2); }
    else if (f[0] == "e4m3") b.push_back((uint8_t)((h % 0x70u) | (((h >> 20) & 1u) << 7)));
    else if (f[0] == "e5m2") b.push_back((uint8_t)((h % 0x48u) | (((h >> 20) & 1u) << 7)));
    else if (f[0] == "i8") b.push_back((uint8_t)(h & 0xff));
    else if (f[0] == "imod") {
      uint32_t v = (uint32_t)(h % strtoull(f[3].c_str(), 0, 10));
      b.insert(b.end(), (uint8_t*)&v, (uint8_t*)&v + 4);
    } else { printf("FAILED buffer token %s\n", tok.c_str()); exit(1); }
  }
  return b;
}

struct alignas(64) Slot { uint8_t b[128]; };

int main(int argc, char** argv) {
  if (argc < 3) { printf("usage: hopper_run2 DIR OUT.bin [KERNEL]\n"); return 2; }
  std::string dir = argv[1];
  FILE* outf = fopen(argv[2], "wb");
  const char* only = argc > 3 ? argv[3] : nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaFree(0));
  CK(cudaGetDriverEntryPointByVersion("cuModuleLoadData", (void**)&pLoad, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuModuleGetFunction", (void**)&pGetFn, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", (void**)&pLaunch, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuFuncSetAttribute", (void**)&pSetAttr, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&pEncode, 12000, cudaEnableDefault, &q));
  FILE* tf = fopen((dir + "/launches.tsv").c_str(), "r");
  if (!tf) { printf("FAILED open launches.tsv\n"); return 1; }
  char line[16384];
  bool head = true;
  while (fgets(line, sizeof line, tf)) {
    if (head) { head = false; continue; }
    std::string l(line);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
    std::vector<std::string> c = split(l, '\t');
    if (c.size() != 7) continue;
    const std::string& name = c[0];
    if (only && name != only) continue;
    std::vector<std::string> g = split(c[2], ',');
    int block = atoi(c[3].c_str()), shared = atoi(c[4].c_str());
    // buffers
    std::vector<void*> dev; std::vector<size_t> size; std::vector<bool> isout;
    for (const std::string& t : split(c[5], ' ')) {
      bool o; std::vector<uint8_t> b = make(t, &o);
      void* d; CK(cudaMalloc(&d, b.size() ? b.size() : 1));
      CK(cudaMemcpy(d, b.data(), b.size(), cudaMemcpyHostToDevice));
      dev.push_back(d); size.push_back(b.size()); isout.push_back(o);
    }
    std::vector<void*> scratch;
    std::vector<std::string> ps = split(c[6], ' ');
    std::vector<Slot> slots(ps.size());
    std::vector<void*> args;
    for (size_t i = 0; i < ps.size(); ++i) {
      std::vector<std::string> f = split(ps[i], ':');
      uint8_t* s = slots[i].b;
      memset(s, 0, 128);
      if (f[0] == "p") { void* p = dev[atoi(f[1].c_str())]; memcpy(s, &p, 8); }
      else if (f[0] == "null") {}
      else if (f[0] == "i32") { int32_t v = (int32_t)strtoll(f[1].c_str(), 0, 10); memcpy(s, &v, 4); }
      else if (f[0] == "i64") { int64_t v = strtoll(f[1].c_str(), 0, 10); memcpy(s, &v, 8); }
      else if (f[0] == "f32") { float v = strtof(f[1].c_str(), 0); memcpy(s, &v, 4); }
      else if (f[0] == "scratch") {
        void* d; size_t n = strtoull(f[1].c_str(), 0, 10);
        CK(cudaMalloc(&d, n)); CK(cudaMemset(d, 0, n)); scratch.push_back(d); memcpy(s, &d, 8);
      } else if (f[0] == "map") {
        void* base = dev[atoi(f[1].c_str())];
        CUtensorMapDataType dt; int es;
        if (f[2] == "f16") { dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; es = 2; }
        else if (f[2] == "bf16") { dt = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; es = 2; }
        else if (f[2] == "u8") { dt = CU_TENSOR_MAP_DATA_TYPE_UINT8; es = 1; }
        else if (f[2] == "f32") { dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; es = 4; }
        else { printf("FAILED map type %s\n", f[2].c_str()); return 1; }
        cuuint64_t dims[2] = {strtoull(f[3].c_str(), 0, 10), strtoull(f[4].c_str(), 0, 10)};
        cuuint64_t strides[1] = {dims[0] * es};
        cuuint32_t box[2] = {(cuuint32_t)atoi(f[5].c_str()), (cuuint32_t)atoi(f[6].c_str())};
        cuuint32_t est[2] = {1, 1};
        CUtensorMap m;
        CKD(pEncode(&m, dt, 2, base, dims, strides, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        memcpy(s, &m, 128);
      } else { printf("FAILED param token %s\n", ps[i].c_str()); return 1; }
      args.push_back(s);
    }
    // the cubin
    std::string path = dir + "/" + name + ".cubin";
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) { printf("FAILED open %s\n", path.c_str()); return 1; }
    std::vector<char> img; char buf[65536]; size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0) img.insert(img.end(), buf, buf + r);
    fclose(f);
    CUmodule mod; CUfunction fn;
    CKD(pLoad(&mod, img.data()));
    CKD(pGetFn(&fn, mod, c[1].c_str()));
    if (shared > 48 * 1024) CKD(pSetAttr(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
    CKD(pLaunch(fn, atoi(g[0].c_str()), atoi(g[1].c_str()), atoi(g[2].c_str()), block, 1, 1, shared, 0,
                args.data(), nullptr));
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("FAILED %s: %s\n", name.c_str(), cudaGetErrorString(e)); return 1; }
    for (size_t i = 0; i < dev.size(); ++i) {
      if (isout[i]) {
        std::vector<uint8_t> h(size[i]);
        CK(cudaMemcpy(h.data(), dev[i], h.size(), cudaMemcpyDeviceToHost));
        printf("%s\targ%zu\t%zu\t%016llx\n", name.c_str(), i, h.size(), (unsigned long long)fnv(h));
        fwrite(h.data(), 1, h.size(), outf);
      }
      CK(cudaFree(dev[i]));
    }
    for (void* s : scratch) CK(cudaFree(s));
    fflush(stdout);
  }
  fclose(outf);
  printf("DONE\n");
  return 0;
}
