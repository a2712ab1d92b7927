// Own CuTe (CUTLASS 4.2 headers) GEMMs for sm_90a that the other calibration kernels lack, as a
// whole program: C = A * B^T, A [M, K] and B [N, K] K-major, f32 accumulation.
//   sw64_store:  fp16, 64x128x32 tiles: 64-byte swizzled K-major GMMA layouts, TMA loads into
//                two stages (two mbarriers), wgmma 64x128x16, the fp16 tile written to shared
//                memory and stored by TMA (`cp.async.bulk.tensor` shared -> global, bulk group)
//   sw32_store:  the same for bf16 with 64x256x16 tiles: 32-byte swizzle, wgmma 64x256x16
//   mcast:       fp16, 64x64x64 tiles, 128-byte swizzle, a 2x1x1 cluster (`__cluster_dims__`): each
//                block loads its A tile and half of the shared B tile, multicast to both blocks
//                (`.multicast::cluster`), one mbarrier per block, `barrier.cluster` between steps
// Inputs are k/32 with k in [-100, 100] (a hash of the index and a seed), so every product sum is
// exact in f32 and the host reference rounds as the device does. The program prints, per kernel,
// the FNV-1a 64 hash of C and whether C equals the reference, then `Passed` when all do.
//   build: nvcc -std=c++17 -O2 -I$CUTLASS_INCLUDE -gencode arch=compute_90a,code=[sm_90a,compute_90a]
//          -cudart shared -o cute_tma_more cute_tma_more.cu
#include <cute/tensor.hpp>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cute/arch/cluster_sm90.hpp>
#include <cutlass/arch/barrier.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace cute;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAILED %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

using Bar = cutlass::arch::ClusterTransactionBarrier;

template <class T, int BN, int BK, class Atom, class Op>
struct Cfg {
  static constexpr int BM = 64;
  using SmemA = decltype(tile_to_shape(Atom{}, make_shape(Int<BM>{}, Int<BK>{})));
  using SmemB = decltype(tile_to_shape(Atom{}, make_shape(Int<BN>{}, Int<BK>{})));
  static constexpr int kShared = (2 * (BM + BN) * BK + BM * BN) * sizeof(T);
};

// two-stage TMA + wgmma, TMA-store epilogue; one warpgroup; grid (M / 64, N / BN)
template <class T, int BN, int BK, class Atom, class Op>
__global__ void __launch_bounds__(128) gemm_store(const __grid_constant__ CUtensorMap tmA,
                                                  const __grid_constant__ CUtensorMap tmB,
                                                  const __grid_constant__ CUtensorMap tmC, int K) {
  using C = Cfg<T, BN, BK, Atom, Op>;
  constexpr int BM = C::BM;
  extern __shared__ __align__(1024) unsigned char smem[];
  T* pA = reinterpret_cast<T*>(smem);
  T* pB = pA + 2 * BM * BK;
  T* pC = pB + 2 * BN * BK;
  __shared__ uint64_t bar[2];
  TiledMMA mma = make_tiled_mma(Op{});
  auto thr = mma.get_slice(threadIdx.x);
  Tensor acc = thr.partition_fragment_C(make_identity_tensor(make_shape(Int<BM>{}, Int<BN>{})));
  int ktiles = K / BK;
  if (threadIdx.x == 0) {
    Bar::init(&bar[0], 1);
    Bar::init(&bar[1], 1);
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  auto issue = [&](int kt) {
    int s = kt & 1;
    Bar::arrive_and_expect_tx(&bar[s], (BM + BN) * BK * sizeof(T));
    SM90_TMA_LOAD_2D::copy(&tmA, &bar[s], 0, pA + s * BM * BK, kt * BK, blockIdx.x * BM);
    SM90_TMA_LOAD_2D::copy(&tmB, &bar[s], 0, pB + s * BN * BK, kt * BK, blockIdx.y * BN);
  };
  if (threadIdx.x == 0) {
    issue(0);
    if (ktiles > 1) issue(1);
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    int s = kt & 1;
    Bar::wait(&bar[s], (kt >> 1) & 1);
    Tensor sA = make_tensor(make_smem_ptr(pA + s * BM * BK), typename C::SmemA{});
    Tensor sB = make_tensor(make_smem_ptr(pB + s * BN * BK), typename C::SmemB{});
    Tensor tCrA = thr.make_fragment_A(thr.partition_A(sA));
    Tensor tCrB = thr.make_fragment_B(thr.partition_B(sB));
    if (kt == 0) mma.accumulate_ = GMMA::ScaleOut::Zero;
    warpgroup_fence_operand(acc);
    warpgroup_arrive();
    CUTE_UNROLL
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      cute::gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), acc);
      mma.accumulate_ = GMMA::ScaleOut::One;
    }
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(acc);
    __syncthreads();
    if (threadIdx.x == 0 && kt + 2 < ktiles) issue(kt + 2);
  }
  Tensor sC = make_tensor(make_smem_ptr(pC), make_layout(make_shape(Int<BM>{}, Int<BN>{}), LayoutRight{}));
  Tensor tCsC = thr.partition_C(sC);
  CUTE_UNROLL
  for (int i = 0; i < size(acc); ++i) tCsC(i) = T(acc(i));
  tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    SM90_TMA_STORE_2D::copy(&tmC, pC, blockIdx.y * BN, blockIdx.x * BM);
    tma_store_arrive();
    tma_store_wait<0>();
  }
}

using SmemM = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_64{}, _64{})));

// 2x1x1 cluster: the two blocks share B's tile; each loads half of it for both (multicast)
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    gemm_mcast(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, int N, int K,
               half_t* Cp) {
  extern __shared__ __align__(1024) unsigned char smem[];
  half_t* pA = reinterpret_cast<half_t*>(smem);
  half_t* pB = pA + 64 * 64;
  __shared__ uint64_t bar;
  uint32_t rank = block_rank_in_cluster();
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  auto thr = mma.get_slice(threadIdx.x);
  Tensor acc = thr.partition_fragment_C(make_identity_tensor(make_shape(_64{}, _64{})));
  if (threadIdx.x == 0) {
    Bar::init(&bar, 1);
    cutlass::arch::fence_barrier_init();
  }
  cluster_sync();
  Tensor sA = make_tensor(make_smem_ptr(pA), SmemM{});
  Tensor sB = make_tensor(make_smem_ptr(pB), SmemM{});
  Tensor tCrA = thr.make_fragment_A(thr.partition_A(sA));
  Tensor tCrB = thr.make_fragment_B(thr.partition_B(sB));
  for (int kt = 0; kt < K / 64; ++kt) {
    if (threadIdx.x == 0) {
      Bar::arrive_and_expect_tx(&bar, 2 * 64 * 64 * 2);
      SM90_TMA_LOAD_2D::copy(&tmA, &bar, 0, pA, kt * 64, blockIdx.x * 64);
      SM90_TMA_LOAD_MULTICAST_2D::copy(&tmB, &bar, 0x3, 0, pB + rank * 32 * 64, kt * 64,
                                       blockIdx.y * 64 + rank * 32);
    }
    Bar::wait(&bar, kt & 1);
    if (kt == 0) mma.accumulate_ = GMMA::ScaleOut::Zero;
    warpgroup_fence_operand(acc);
    warpgroup_arrive();
    CUTE_UNROLL
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      cute::gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), acc);
      mma.accumulate_ = GMMA::ScaleOut::One;
    }
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(acc);
    cluster_sync();
  }
  Tensor mC = make_tensor(make_gmem_ptr(Cp), make_shape(gridDim.x * 64, N), make_stride(N, _1{}));
  Tensor gC = local_tile(mC, make_shape(_64{}, _64{}), make_coord(blockIdx.x, blockIdx.y));
  Tensor tCgC = thr.partition_C(gC);
  CUTE_UNROLL
  for (int i = 0; i < size(acc); ++i) tCgC(i) = half_t(acc(i));
}

static decltype(&cuTensorMapEncodeTiled) pEncode;

static uint32_t hash(uint32_t seed, uint32_t i) {
  uint32_t h = i * 2654435761u ^ seed * 0x9E3779B9u;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
  return h;
}
static float val(uint32_t seed, uint32_t i) { return (float)((int)(hash(seed, i) % 201u) - 100) / 32.0f; }
static uint64_t fnv(const void* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) { h ^= ((const uint8_t*)p)[i]; h *= 0x100000001b3ull; }
  return h;
}

static CUtensorMap map2d(void* base, CUtensorMapDataType dt, int es, uint64_t inner, uint64_t outer, uint32_t bi,
                         uint32_t bo, CUtensorMapSwizzle sw) {
  CUtensorMap m;
  cuuint64_t dims[2] = {inner, outer};
  cuuint64_t strides[1] = {inner * es};
  cuuint32_t box[2] = {bi, bo};
  cuuint32_t el[2] = {1, 1};
  CUresult r = pEncode(&m, dt, 2, base, dims, strides, box, el, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                       CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { printf("FAILED cuTensorMapEncodeTiled: %d\n", (int)r); exit(1); }
  return m;
}

// inputs of type T (half or bf16 bits), the reference C rounded to T
template <class T>
struct Gemm {
  int M, N, K;
  std::vector<T> a, b, ref;
  T *da, *db, *dc;
  Gemm(int m, int n, int k, T (*cvt)(float)) : M(m), N(n), K(k), a(m * k), b(n * k), ref(m * n) {
    for (int i = 0; i < M * K; ++i) a[i] = cvt(val(1, i));
    for (int i = 0; i < N * K; ++i) b[i] = cvt(val(2, i));
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int k2 = 0; k2 < K; ++k2) s += (double)val(1, i * K + k2) * (double)val(2, j * K + k2);
        ref[i * N + j] = cvt((float)s);
      }
    cudaMalloc(&da, a.size() * 2);
    cudaMalloc(&db, b.size() * 2);
    cudaMalloc(&dc, ref.size() * 2);
    cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
    cudaMemset(dc, 0, ref.size() * 2);
  }
  bool report(const char* name) {
    std::vector<T> c(ref.size());
    cudaMemcpy(c.data(), dc, c.size() * 2, cudaMemcpyDeviceToHost);
    bool ok = memcmp(c.data(), ref.data(), c.size() * 2) == 0;
    printf("%s\t%016llx\t%s\n", name, (unsigned long long)fnv(c.data(), c.size() * 2), ok ? "equal" : "DIFFERS");
    return ok;
  }
};

static __half h_of(float f) { return __float2half_rn(f); }
static __nv_bfloat16 bf_of(float f) { return __float2bfloat16_rn(f); }

using OpH = SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>;
using OpB = SM90_64x256x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K>;
using CfgH = Cfg<half_t, 128, 32, GMMA::Layout_K_SW64_Atom<half_t>, OpH>;
using CfgB = Cfg<bfloat16_t, 256, 16, GMMA::Layout_K_SW32_Atom<bfloat16_t>, OpB>;

int main() {
  cudaDriverEntryPointQueryResult q;
  CK(cudaFree(0));
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&pEncode, 12000, cudaEnableDefault, &q));
  bool all = true;
  {  // fp16, 64-byte swizzle, TMA store: M 128, N 256, K 128
    Gemm<__half> g(128, 256, 128, h_of);
    auto mA = map2d(g.da, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.K, g.M, 32, 64, CU_TENSOR_MAP_SWIZZLE_64B);
    auto mB = map2d(g.db, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.K, g.N, 32, 128, CU_TENSOR_MAP_SWIZZLE_64B);
    auto mC = map2d(g.dc, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.N, g.M, 128, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
    auto k = gemm_store<half_t, 128, 32, GMMA::Layout_K_SW64_Atom<half_t>, OpH>;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, CfgH::kShared));
    k<<<dim3(2, 2), 128, CfgH::kShared>>>(mA, mB, mC, g.K);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    all &= g.report("sw64_store");
  }
  {  // bf16, 32-byte swizzle, wgmma N 256, TMA store: M 128, N 256, K 128
    Gemm<__nv_bfloat16> g(128, 256, 128, bf_of);
    auto mA = map2d(g.da, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, g.K, g.M, 16, 64, CU_TENSOR_MAP_SWIZZLE_32B);
    auto mB = map2d(g.db, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, g.K, g.N, 16, 256, CU_TENSOR_MAP_SWIZZLE_32B);
    auto mC = map2d(g.dc, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, g.N, g.M, 256, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
    auto k = gemm_store<bfloat16_t, 256, 16, GMMA::Layout_K_SW32_Atom<bfloat16_t>, OpB>;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, CfgB::kShared));
    k<<<dim3(2, 1), 128, CfgB::kShared>>>(mA, mB, mC, g.K);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    all &= g.report("sw32_store");
  }
  {  // fp16 multicast over a 2x1x1 cluster: M 128, N 128, K 256
    Gemm<__half> g(128, 128, 256, h_of);
    auto mA = map2d(g.da, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.K, g.M, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    auto mB = map2d(g.db, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.K, g.N, 64, 32, CU_TENSOR_MAP_SWIZZLE_128B);
    int shared = 2 * 64 * 64 * 2;
    CK(cudaFuncSetAttribute(gemm_mcast, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    gemm_mcast<<<dim3(2, 2), 128, shared>>>(mA, mB, g.N, g.K, reinterpret_cast<half_t*>(g.dc));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    all &= g.report("mcast");
  }
  printf(all ? "Passed\n" : "Failed\n");
  return all ? 0 : 1;
}
