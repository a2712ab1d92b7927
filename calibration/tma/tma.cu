// Tensor memory accelerator (TMA) layouts: tensor maps made by cuTensorMapEncodeTiled/Im2col
// (through cudaGetDriverEntryPointByVersion), tile loads of known tensors into shared memory with
// every swizzle mode, out-of-bounds boxes, element strides, 1-5 dimensions, fp32/fp16/u16/u8, one
// im2col load, a multicast load in a 2-block cluster, stores and reductions back to global memory,
// and tensormap.replace on copies in global and shared memory. Prints shared memory and tensors
// as hex words.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
typedef CUresult (*EncodeIm2col)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                 const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
                                 const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static EncodeTiled encode;
static EncodeIm2col encode_im2col;

struct Coords { int c[5]; };

#define SMEM_BYTES 8192
#define FILL 0xabababab

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect(uint64_t *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
}
__device__ unsigned timeouts;
// Waits for the phase with a bound (a box whose byte count is not the expected one never completes).
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity) {
  for (unsigned i = 0; i < 4000000; i++) {
    unsigned done;
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(smem_u32(bar)), "r"(parity) : "memory");
    if (done) return;
  }
  atomicAdd(&timeouts, 1);
}

__device__ void tma_load(int rank, uint32_t dst, const void *tm, const Coords &k, uint32_t bar) {
  const int *c = k.c;
  switch (rank) {
  case 1:
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(bar) : "memory"); break;
  case 2:
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory"); break;
  case 3:
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory"); break;
  case 4:
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory"); break;
  default:
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory"); break;
  }
}

// One block: thread 0 fills the 1024-aligned buffer with FILL, loads one box, all threads copy the
// buffer out. mode 0: the map is the parameter; 1: replace the global address on the copy `gtm` in
// global memory; 2: copy the parameter to shared memory, replace the address and box_dim[1] there,
// copy it to `gtm` with tensormap.cp_fenceproxy.
__global__ void load_k(const __grid_constant__ CUtensorMap tm, int rank, Coords k, unsigned bytes, unsigned words,
                       uint32_t *out, int mode, CUtensorMap *gtm, const void *other) {
  extern __shared__ unsigned char raw[];
  __shared__ alignas(8) uint64_t bar;
  __shared__ alignas(128) CUtensorMap stm;
  unsigned char *buf = (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  uint32_t *w = (uint32_t *)buf;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) w[i] = FILL;
  __syncthreads();
  const void *map = &tm;
  if (mode == 2 && threadIdx.x < 32) {
    if (threadIdx.x == 0) {
      stm = tm;
      asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;"
                   ::"r"(smem_u32(&stm)), "l"(other) : "memory");
      asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;"
                   ::"r"(smem_u32(&stm)), "r"(4) : "memory");
    }
    __syncwarp();
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 ::"l"(gtm), "r"(smem_u32(&stm)) : "memory");
  }
  if (threadIdx.x == 0) {
    if (mode == 1) {
      asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(gtm), "l"(other) : "memory");
      asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    }
    if (mode != 0) {
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gtm) : "memory");
      map = gtm;
    }
    mbar_init(&bar, 1);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    mbar_expect(&bar, bytes);
    tma_load(rank, smem_u32(buf), map, k, smem_u32(&bar));
    mbar_wait(&bar, 0);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) out[i] = w[i];
}

// im2col: a 4-D NHWC tensor, coordinates {c, w, h, n} and offsets {w, h}.
__global__ void im2col_k(const __grid_constant__ CUtensorMap tm, Coords k, int offw, int offh, unsigned bytes,
                         unsigned words, uint32_t *out) {
  extern __shared__ unsigned char raw[];
  __shared__ alignas(8) uint64_t bar;
  unsigned char *buf = (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  uint32_t *w = (uint32_t *)buf;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) w[i] = FILL;
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    mbar_expect(&bar, bytes);
    unsigned short ow = (unsigned short)offw, oh = (unsigned short)offh;
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                 ::"r"(smem_u32(buf)), "l"(&tm), "r"(k.c[0]), "r"(k.c[1]), "r"(k.c[2]), "r"(k.c[3]),
                 "r"(smem_u32(&bar)), "h"(ow), "h"(oh) : "memory");
    mbar_wait(&bar, 0);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) out[i] = w[i];
}

// Multicast in a cluster of 2: rank r loads box r (coordinates k0 / k1) into offset r*half of both
// blocks' buffers; each block's mbarrier expects both boxes.
__global__ void __cluster_dims__(2, 1, 1) multicast_k(const __grid_constant__ CUtensorMap tm, Coords k0, Coords k1,
                                                      unsigned half, uint32_t *out) {
  extern __shared__ unsigned char raw[];
  __shared__ alignas(8) uint64_t bar;
  unsigned char *buf = (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  uint32_t *w = (uint32_t *)buf;
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  for (unsigned i = threadIdx.x; i < half / 2; i += blockDim.x) w[i] = FILL;
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    mbar_expect(&bar, 2 * half);
  }
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) {
    const Coords &k = r ? k1 : k0;
    unsigned short mask = 3;
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                 ::"r"(smem_u32(buf + r * half)), "l"(&tm), "r"(k.c[0]), "r"(k.c[1]), "r"(smem_u32(&bar)), "h"(mask)
                 : "memory");
    mbar_wait(&bar, 0);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < half / 2; i += blockDim.x) out[r * (half / 2) + i] = w[i];
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Store (op 0) or reduce (op 1 add, 2 min, 3 max) a 2-D box from shared memory: word i of the box is
// f(i) (op 0/1: float 0.5*i for fp32 maps, i for integer maps; op 2/3: i*7 % 23 - 11).
__global__ void store_k(const __grid_constant__ CUtensorMap tm, Coords k, unsigned words, int op, int isfloat) {
  extern __shared__ unsigned char raw[];
  unsigned char *buf = (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  uint32_t *w = (uint32_t *)buf;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) {
    if (op >= 2) w[i] = (uint32_t)((int)(i * 7 % 23) - 11);
    else if (isfloat) { float f = 0.5f * i; w[i] = __float_as_uint(f); }
    else w[i] = i;
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t s = smem_u32(buf);
    if (op == 0)
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                   ::"l"(&tm), "r"(k.c[0]), "r"(k.c[1]), "r"(s) : "memory");
    else if (op == 1)
      asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                   ::"l"(&tm), "r"(k.c[0]), "r"(k.c[1]), "r"(s) : "memory");
    else if (op == 2)
      asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];"
                   ::"l"(&tm), "r"(k.c[0]), "r"(k.c[1]), "r"(s) : "memory");
    else
      asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%0, {%1, %2}], [%3];"
                   ::"l"(&tm), "r"(k.c[0]), "r"(k.c[1]), "r"(s) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) { printf("%s: %s\n", what, cudaGetErrorString(e)); fflush(stdout); }
}

static void dump(const char *name, const uint32_t *w, unsigned n) {
  unsigned t = 0;
  cudaMemcpyFromSymbol(&t, timeouts, 4);
  if (t) { printf("TIMEOUT %u\n", t); t = 0; cudaMemcpyToSymbol(timeouts, &t, 4); }
  printf("%s %u words\n", name, n);
  for (unsigned i = 0; i < n; i++) printf("%08x%c", w[i], (i % 8 == 7 || i + 1 == n) ? '\n' : ' ');
}

static uint32_t *dout;
static void *dA, *dB;  // tensor A: word i = i (4096 words = 16 KiB), tensor B: word i = 0x10000 + i
static const unsigned esize[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

struct Tiled {
  const char *name;
  CUtensorMapDataType t; unsigned rank; unsigned long long dims[5], strides[4];
  unsigned box[5], es[5]; CUtensorMapSwizzle sw; CUtensorMapFloatOOBfill fill; Coords k; size_t off;
};

static void run_tiled(const Tiled &c, int mode = 0) {
  CUtensorMap tm;
  alignas(64) static CUtensorMap tmh;
  cuuint64_t d[5], s[4]; cuuint32_t b[5], e[5];
  unsigned bytes = esize[c.t];
  for (unsigned i = 0; i < c.rank; i++) {
    d[i] = c.dims[i]; b[i] = c.box[i]; e[i] = c.es[i] ? c.es[i] : 1;
    if (i + 1 < c.rank) s[i] = c.strides[i];
    bytes *= (i == 0) ? b[i] : (b[i] + e[i] - 1) / e[i];
  }
  CUresult r = encode(&tmh, c.t, c.rank, (char *)dA + c.off, d, s, b, e, CU_TENSOR_MAP_INTERLEAVE_NONE, c.sw,
                      CU_TENSOR_MAP_L2_PROMOTION_NONE, c.fill);
  tm = tmh;
  printf("case %s encode %d bytes %u\n", c.name, (int)r, bytes);
  if (r != CUDA_SUCCESS) return;
  unsigned words = (bytes + 3) / 4 + 16;
  if (mode == 2) words = (bytes / 2 + 3) / 4 + 16;
  CUtensorMap *gtm = nullptr;
  if (mode) { check(cudaMalloc(&gtm, 128), "malloc"); check(cudaMemcpy(gtm, &tm, 128, cudaMemcpyHostToDevice), "copy"); }
  load_k<<<1, 128, SMEM_BYTES + 1024>>>(tm, c.rank, c.k, mode == 2 ? bytes / 2 : bytes, words, dout, mode, gtm, dB);
  check(cudaDeviceSynchronize(), c.name);
  static uint32_t h[SMEM_BYTES / 4];
  check(cudaMemcpy(h, dout, words * 4, cudaMemcpyDeviceToHost), "copy back");
  dump(c.name, h, words);
  if (gtm) cudaFree(gtm);
}

#define F32 CU_TENSOR_MAP_DATA_TYPE_FLOAT32
#define F16 CU_TENSOR_MAP_DATA_TYPE_FLOAT16
#define U16 CU_TENSOR_MAP_DATA_TYPE_UINT16
#define U8 CU_TENSOR_MAP_DATA_TYPE_UINT8
#define S32 CU_TENSOR_MAP_DATA_TYPE_INT32
#define SWN CU_TENSOR_MAP_SWIZZLE_NONE
#define SW32 CU_TENSOR_MAP_SWIZZLE_32B
#define SW64 CU_TENSOR_MAP_SWIZZLE_64B
#define SW128 CU_TENSOR_MAP_SWIZZLE_128B
#define ZERO CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
#define NANF CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA

static void dump_tensor(const char *name, void *dev, unsigned words) {
  static uint32_t h[4096];
  check(cudaMemcpy(h, dev, words * 4, cudaMemcpyDeviceToHost), "tensor back");
  printf("tensor %s changed words:\n", name);
  unsigned n = 0;
  for (unsigned i = 0; i < words; i++)
    if (h[i] != i) { printf("%u=%08x%c", i, h[i], (++n % 8 == 0) ? '\n' : ' '); }
  printf("\n(%u changed)\n", n);
}

// TMA stores and reductions of a box of A's copy C at k (op 0 store, 1 add, 2 min, 3 max).
struct St { const char *name; CUtensorMapDataType t; unsigned box[2]; CUtensorMapSwizzle sw; Coords k; int op; };
static const St stores[] = {
  {"store_f32_oob_end", F32, {32, 8}, SWN, {{48, 60}}, 0},
  {"reduce_add_f32", F32, {16, 4}, SWN, {{8, 4}}, 1},
  {"reduce_add_s32_oob", S32, {16, 4}, SW64, {{56, 62}}, 1},
  {"reduce_min_s32", S32, {8, 4}, SWN, {{0, 0}}, 2},
  {"reduce_max_s32", S32, {8, 4}, SWN, {{0, 0}}, 3},
};
// the GPU stops this store ("illegal instruction", the fifth run): a probe of its own
static const St store_probes[] = {
  {"store_f32_oob_neg_sw128", F32, {32, 8}, SW128, {{-8, -2}}, 0},
};

static void run_store(const St &c) {
  static uint32_t h[4096];
  static void *dC;
  if (!dC) check(cudaMalloc(&dC, 16384), "malloc C");
  check(cudaFuncSetAttribute(store_k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES + 1024), "attr");
  for (unsigned i = 0; i < 4096; i++) h[i] = i;
  check(cudaMemcpy(dC, h, 16384, cudaMemcpyHostToDevice), "C");
  alignas(64) static CUtensorMap tm;
  cuuint64_t d[2] = {64, 64}, s[1] = {256};
  cuuint32_t es[2] = {1, 1};
  CUresult r = encode(&tm, c.t, 2, dC, d, s, c.box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, c.sw,
                      CU_TENSOR_MAP_L2_PROMOTION_NONE, ZERO);
  printf("case %s encode %d\n", c.name, (int)r);
  store_k<<<1, 128, SMEM_BYTES + 1024>>>(tm, c.k, c.box[0] * c.box[1], c.op, c.t == F32);
  check(cudaDeviceSynchronize(), c.name);
  dump_tensor(c.name, dC, 4096);
}

// Probes run one per process (`./tma probe NAME`): a launch the GPU stops (an illegal
// instruction) leaves the context unusable.
static const Tiled probes[] = {
  {"u8_250_oob", U8, 2, {250, 60}, {256}, {16, 4}, {}, SWN, ZERO, {{244, 58}}, 16},
  {"u8_250_inb", U8, 2, {250, 60}, {256}, {16, 4}, {}, SWN, ZERO, {{224, 8}}, 0},
  {"f32_20_inb", F32, 2, {20, 10}, {96}, {8, 4}, {}, SWN, ZERO, {{0, 0}}, 0},
  {"u8_256_off16", U8, 2, {256, 60}, {256}, {16, 4}, {}, SWN, ZERO, {{0, 0}}, 16},
  {"u8_2d_oob", U8, 2, {256, 60}, {256}, {16, 4}, {}, SWN, ZERO, {{248, 58}}, 16},
  {"u8_oob_dim1", U8, 2, {256, 60}, {256}, {16, 4}, {}, SWN, ZERO, {{0, 58}}, 0},
  {"u8_32_oob", U8, 2, {256, 60}, {256}, {32, 4}, {}, SWN, ZERO, {{240, 0}}, 0},
  {"u16_4d", U16, 4, {16, 4, 3, 5}, {32, 128, 384}, {8, 2, 2, 3}, {}, SWN, ZERO, {{4, 3, 1, 3}}, 0},
  {"u16_4d_inb", U16, 4, {16, 4, 3, 5}, {32, 128, 384}, {8, 2, 2, 3}, {}, SWN, ZERO, {{4, 1, 1, 1}}, 0},
  {"f32_5d", F32, 5, {4, 3, 3, 3, 3}, {16, 48, 144, 432}, {4, 2, 2, 2, 2}, {}, SWN, ZERO, {{0, 2, 1, -1, 2}}, 0},
  {"f32_5d_inb", F32, 5, {4, 3, 3, 3, 3}, {16, 48, 144, 432}, {4, 2, 2, 2, 2}, {}, SWN, ZERO, {{0, 1, 1, 1, 1}}, 0},
};

int main(int argc, char **argv) {
  cudaDriverEntryPointQueryResult q;
  void *fn = nullptr;
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
  printf("entry cuTensorMapEncodeTiled %d query %d found %d\n", (int)e, (int)q, fn != nullptr);
  encode = (EncodeTiled)fn;
  e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &fn, 12000, cudaEnableDefault, &q);
  printf("entry cuTensorMapEncodeIm2col %d query %d found %d\n", (int)e, (int)q, fn != nullptr);
  encode_im2col = (EncodeIm2col)fn;
  fn = (void *)1;
  e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 12000, cudaEnableDefault, &q);
  printf("entry cuNoSuchFunction %d query %d null %d\n", (int)e, (int)q, fn == nullptr);
  if (!encode || !encode_im2col) return 1;
  check(cudaFuncSetAttribute(load_k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES + 1024), "attr");

  static uint32_t h[4096];
  check(cudaMalloc(&dA, 16384), "malloc A");
  check(cudaMalloc(&dB, 16384), "malloc B");
  check(cudaMalloc(&dout, SMEM_BYTES), "malloc out");
  for (unsigned i = 0; i < 4096; i++) h[i] = i;
  check(cudaMemcpy(dA, h, 16384, cudaMemcpyHostToDevice), "A");
  for (unsigned i = 0; i < 4096; i++) h[i] = 0x10000 + i;
  check(cudaMemcpy(dB, h, 16384, cudaMemcpyHostToDevice), "B");
  if (argc > 2 && strcmp(argv[1], "probe") == 0) {
    for (const Tiled &c : probes)
      if (strcmp(c.name, argv[2]) == 0) run_tiled(c);
    for (const St &c : store_probes)
      if (strcmp(c.name, argv[2]) == 0) run_store(c);
    return 0;
  }

  // A as fp32 64 x 64 (row stride 256 bytes)
  const Tiled cases[] = {
    {"f32_2d_none", F32, 2, {64, 64}, {256}, {32, 16}, {}, SWN, ZERO, {{8, 5}}, 0},
    {"f32_2d_sw32", F32, 2, {64, 64}, {256}, {8, 16}, {}, SW32, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw64", F32, 2, {64, 64}, {256}, {16, 16}, {}, SW64, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw128", F32, 2, {64, 64}, {256}, {32, 16}, {}, SW128, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw128_inner64", F32, 2, {64, 64}, {256}, {16, 16}, {}, SW128, ZERO, {{4, 1}}, 0},
    {"f32_2d_sw128_inner32", F32, 2, {64, 64}, {256}, {8, 32}, {}, SW128, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw64_inner32", F32, 2, {64, 64}, {256}, {8, 16}, {}, SW64, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw32_inner16", F32, 2, {64, 64}, {256}, {4, 16}, {}, SW32, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw128_oob_neg", F32, 2, {64, 64}, {256}, {32, 8}, {}, SW128, ZERO, {{-4, -3}}, 0},
    {"f32_2d_oob_neg_nan", F32, 2, {64, 64}, {256}, {16, 4}, {}, SWN, NANF, {{-4, -3}}, 0},
    {"f32_2d_oob_end_nan", F32, 2, {64, 64}, {256}, {16, 4}, {}, SWN, NANF, {{56, 62}}, 0},
    {"f32_2d_oob_far", F32, 2, {64, 64}, {256}, {16, 4}, {}, SWN, ZERO, {{-100, 70}}, 0},
    {"f32_2d_estride_1_2", F32, 2, {64, 64}, {256}, {16, 8}, {1, 2}, SWN, ZERO, {{0, 1}}, 0},
    {"f32_2d_estride_2_3", F32, 2, {64, 64}, {256}, {16, 7}, {2, 3}, SWN, ZERO, {{0, 0}}, 0},
    {"f32_2d_estride_oob", F32, 2, {64, 64}, {256}, {8, 8}, {1, 3}, SWN, ZERO, {{60, 55}}, 0},
    {"f32_2d_sw128_atom32", F32, 2, {64, 64}, {256}, {32, 8}, {}, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, ZERO, {{0, 0}}, 0},
    {"f32_2d_sw128_atom64", F32, 2, {64, 64}, {256}, {32, 8}, {}, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B, ZERO, {{0, 0}}, 0},
    {"f32_2d_pad", F32, 2, {20, 10}, {96}, {8, 4}, {}, SWN, ZERO, {{16, 8}}, 0},
    {"f16_2d_sw128", F16, 2, {128, 64}, {256}, {64, 8}, {}, SW128, ZERO, {{0, 2}}, 0},
    {"f16_2d_none", F16, 2, {128, 64}, {256}, {24, 4}, {}, SWN, NANF, {{120, 1}}, 0},
    {"u8_2d_sw128", U8, 2, {256, 64}, {256}, {128, 8}, {}, SW128, ZERO, {{64, 0}}, 0},
    {"u8_2d_sw32", U8, 2, {256, 64}, {256}, {32, 8}, {}, SW32, ZERO, {{0, 0}}, 0},
    {"f32_1d", F32, 1, {1000}, {}, {64}, {}, SWN, ZERO, {{960}}, 0},
    {"f32_1d_neg", F32, 1, {1000}, {}, {16}, {}, SWN, NANF, {{-8}}, 0},
    {"f32_3d", F32, 3, {8, 6, 5}, {32, 192}, {8, 4, 3}, {}, SWN, ZERO, {{0, 3, 3}}, 0},
    {"f32_5d_sw64_estride", F32, 5, {16, 3, 3, 3, 3}, {64, 192, 576, 1728}, {16, 3, 2, 2, 2}, {1, 2, 1, 2, 1}, SW64, ZERO, {{0, 0, 1, 0, 1}}, 0},
  };
  for (const Tiled &c : cases) run_tiled(c);

  // tensormap.replace of the global address (copy in global memory; copy in shared memory, with box_dim[1] = 4)
  const Tiled rep = {"replace_global", F32, 2, {64, 64}, {256}, {16, 8}, {}, SWN, ZERO, {{0, 1}}, 0};
  run_tiled(rep, 1);
  const Tiled rep2 = {"replace_shared", F32, 2, {64, 64}, {256}, {16, 8}, {}, SWN, ZERO, {{0, 1}}, 0};
  run_tiled(rep2, 2);

  // im2col: NHWC fp32 C=8 W=6 H=5 N=2, lower corner {-1,-1}, upper {-1,-1}, 8 channels, 16 pixels
  {
    alignas(64) static CUtensorMap tm;
    cuuint64_t d[4] = {8, 6, 5, 2}, s[3] = {32, 192, 960};
    int lo[2] = {-1, -1}, hi[2] = {-1, -1};
    cuuint32_t es[4] = {1, 1, 1, 1};
    CUresult r = encode_im2col(&tm, F32, 4, dA, d, s, lo, hi, 8, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, ZERO);
    printf("case im2col encode %d bytes 512\n", (int)r);
    check(cudaFuncSetAttribute(im2col_k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES + 1024), "attr");
    Coords k[3] = {{{0, -1, -1, 0}}, {{0, 1, 0, 1}}, {{0, -1, -1, 0}}};
    int offs[3][2] = {{0, 0}, {0, 0}, {1, 2}};
    for (int i = 0; i < 3 && r == CUDA_SUCCESS; i++) {
      im2col_k<<<1, 128, SMEM_BYTES + 1024>>>(tm, k[i], offs[i][0], offs[i][1], 512, 144, dout);
      check(cudaDeviceSynchronize(), "im2col");
      check(cudaMemcpy(h, dout, 144 * 4, cudaMemcpyDeviceToHost), "copy back");
      char name[64];
      snprintf(name, sizeof name, "im2col_%d_%d_%d_%d_off_%d_%d", k[i].c[0], k[i].c[1], k[i].c[2], k[i].c[3], offs[i][0], offs[i][1]);
      dump(name, h, 144);
    }
  }

  // multicast: two boxes of 32 x 8 fp32 (1024 bytes each), one per rank, into both blocks
  {
    alignas(64) static CUtensorMap tm;
    cuuint64_t d[2] = {64, 64}, s[1] = {256};
    cuuint32_t b[2] = {32, 8}, es[2] = {1, 1};
    CUresult r = encode(&tm, F32, 2, dA, d, s, b, es, CU_TENSOR_MAP_INTERLEAVE_NONE, SW128,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, ZERO);
    printf("case multicast encode %d\n", (int)r);
    check(cudaFuncSetAttribute(multicast_k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES + 1024), "attr");
    Coords k0 = {{0, 8}}, k1 = {{32, 60}};
    multicast_k<<<2, 128, SMEM_BYTES + 1024>>>(tm, k0, k1, 1024, dout);
    check(cudaDeviceSynchronize(), "multicast");
    check(cudaMemcpy(h, dout, 2048 * 4 / 4, cudaMemcpyDeviceToHost), "copy back");
    dump("multicast_rank0", h, 512);
    dump("multicast_rank1", h + 512, 512);
  }

  // stores and reductions into copies of A
  for (const St &c : stores) run_store(c);

  // encode errors
  {
    alignas(64) static CUtensorMap tms[2];
    struct Bad { const char *name; CUtensorMap *tm; CUtensorMapDataType t; unsigned rank; size_t off; unsigned long long d0, s0;
                 unsigned b0, b1, e1; CUtensorMapInterleave il; CUtensorMapSwizzle sw; CUtensorMapFloatOOBfill fill; } bad[] = {
      {"ok", &tms[0], F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"addr_misaligned_4", &tms[0], F32, 2, 4, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"addr_misaligned_8", &tms[0], F32, 2, 8, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"stride_100", &tms[0], F32, 2, 0, 64, 100, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"stride_8", &tms[0], F32, 2, 0, 2, 8, 2, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"box_257", &tms[0], U8, 2, 0, 512, 512, 16, 257, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"box_0", &tms[0], F32, 2, 0, 64, 256, 32, 0, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"box_inner_24_bytes", &tms[0], F32, 2, 0, 64, 256, 6, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"box_larger_than_dim", &tms[0], F32, 2, 0, 16, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"sw128_inner_256", &tms[0], F32, 2, 0, 64, 256, 64, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW128, ZERO},
      {"sw32_inner_64", &tms[0], F32, 2, 0, 64, 256, 16, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW32, ZERO},
      {"rank_0", &tms[0], F32, 0, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"rank_6", &tms[0], F32, 6, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"estride_9", &tms[0], F32, 2, 0, 64, 256, 32, 8, 9, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"estride_0", &tms[0], F32, 2, 0, 64, 256, 32, 8, 0, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"nan_fill_int", &tms[0], S32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, NANF},
      {"dim_0", &tms[0], F32, 2, 0, 0, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"interleave_rank2", &tms[0], F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_16B, SWN, ZERO},
      {"map_misaligned", (CUtensorMap *)((char *)&tms[0] + 32), F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"map_misaligned_16", (CUtensorMap *)((char *)&tms[0] + 16), F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"map_misaligned_8", (CUtensorMap *)((char *)&tms[0] + 8), F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"map_misaligned_4", (CUtensorMap *)((char *)&tms[0] + 4), F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"map_misaligned_1", (CUtensorMap *)((char *)&tms[0] + 1), F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"type_99", &tms[0], (CUtensorMapDataType)99, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
      {"swizzle_99", &tms[0], F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)99, ZERO},
      {"null_map", nullptr, F32, 2, 0, 64, 256, 32, 8, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SWN, ZERO},
    };
    for (auto &b : bad) {
      cuuint64_t d[6] = {b.d0, 64, 4, 4, 4, 4}, s[5] = {b.s0, 65536, 65536, 65536, 65536};
      cuuint32_t bx[6] = {b.b0, b.b1, 1, 1, 1, 1}, es[6] = {1, b.e1, 1, 1, 1, 1};
      CUresult r = encode(b.tm, b.t, b.rank, (char *)dA + b.off, d, s, bx, es, b.il, b.sw,
                          CU_TENSOR_MAP_L2_PROMOTION_NONE, b.fill);
      printf("encode_error %s %d\n", b.name, (int)r);
    }
  }
  printf("done\n");
  return 0;
}
