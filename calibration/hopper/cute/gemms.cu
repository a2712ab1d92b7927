// Own CuTe GEMM kernels for the Hopper calibration (C = A * B^T, A MxK and B NxK both K-major,
// fp16 in, f32 accumulate, fp16 C row-major). Parameters are flat (pointers and ints), so that
// `warpscope analyze --arg` can pass them; the TMA kernel takes its two tensor maps by value.
//   gemm_sm80:      64x64x32 tile, 128 threads, cp.async.cg 16-byte copies into swizzled shared
//                   memory, ldmatrix + mma.sync m16n8k16 (2x2 warps), 2-stage pipeline.
//   gemm_sm80_ca4:  same MMA, operands staged by 4-byte cp.async.ca copies (no swizzle).
//   gemm_wgmma:     128x64x64 tile, one warpgroup, CuTe 16-byte cp.async copies into the
//                   128-byte-swizzled K-major GMMA layouts, wgmma 64x64x16 SS.
//   gemm_wgmma_tma: same MMA, the tiles loaded by TMA (SM90_TMA_LOAD_2D) with an mbarrier.
#include <cute/tensor.hpp>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cute/arch/cluster_sm90.hpp>
#include <cutlass/arch/barrier.h>
#include <cuda.h>

using namespace cute;

namespace hop {

constexpr int kBM80 = 64, kBN80 = 64, kBK80 = 32;

template <class CopyAtom>
__device__ void sm80_body(int M, int N, int K, half_t const* A, half_t const* B, half_t* C,
                          CopyAtom, bool swizzled) {
  // shared layouts: 8x32 atoms (swizzled or not), tiled to 64x32, two stages
  auto atom_sw = composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  auto sA_l = tile_to_shape(atom_sw, make_shape(Int<kBM80>{}, Int<kBK80>{}, _2{}));
  auto sB_l = tile_to_shape(atom_sw, make_shape(Int<kBN80>{}, Int<kBK80>{}, _2{}));
  __shared__ alignas(128) half_t smA[kBM80 * kBK80 * 2];
  __shared__ alignas(128) half_t smB[kBN80 * kBK80 * 2];
  Tensor sA = make_tensor(make_smem_ptr(smA), sA_l);
  Tensor sB = make_tensor(make_smem_ptr(smB), sB_l);

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, _1{}));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(N, _1{}));
  auto tiler = make_shape(Int<kBM80>{}, Int<kBN80>{}, Int<kBK80>{});
  auto coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, coord, Step<_1, X, _1>{});   // (BM,BK,k)
  Tensor gB = local_tile(mB, tiler, coord, Step<X, _1, _1>{});   // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, coord, Step<_1, _1, X>{});   // (BM,BN)

  using T = typename CopyAtom::ValType;
  constexpr int vec = sizeof(typename CopyAtom::ValType) == 2 ? 8 : 2;
  // 128 threads: (128*vec/32) rows of 32 halves per pass
  auto gcp = make_tiled_copy(CopyAtom{},
                              Layout<Shape<Int<128 * vec / 32>, Int<32 / vec>>, Stride<Int<32 / vec>, _1>>{},
                              Layout<Shape<_1, Int<vec>>>{});
  auto thr_copy = gcp.get_slice(threadIdx.x);
  Tensor tAg = thr_copy.partition_S(gA);
  Tensor tAs = thr_copy.partition_D(sA);
  Tensor tBg = thr_copy.partition_S(gB);
  Tensor tBs = thr_copy.partition_D(sB);

  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{},
                                Tile<_32, _32, _16>{});
  auto thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));
  Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));
  Tensor tCgC = thr_mma.partition_C(gC);
  Tensor acc = thr_mma.make_fragment_C(tCgC);
  clear(acc);

  auto ldA = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto ldB = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto ldA_thr = ldA.get_slice(threadIdx.x);
  auto ldB_thr = ldB.get_slice(threadIdx.x);
  Tensor tXsA = ldA_thr.partition_S(sA);
  Tensor tXrA = ldA_thr.retile_D(tCrA);
  Tensor tXsB = ldB_thr.partition_S(sB);
  Tensor tXrB = ldB_thr.retile_D(tCrB);

  int ktiles = size<3>(tAg);
  copy(gcp, tAg(_, _, _, 0), tAs(_, _, _, 0));
  copy(gcp, tBg(_, _, _, 0), tBs(_, _, _, 0));
  cp_async_fence();
  for (int kt = 0; kt < ktiles; ++kt) {
    int st = kt & 1;
    if (kt + 1 < ktiles) {
      copy(gcp, tAg(_, _, _, kt + 1), tAs(_, _, _, st ^ 1));
      copy(gcp, tBg(_, _, _, kt + 1), tBs(_, _, _, st ^ 1));
    }
    cp_async_fence();
    cp_async_wait<1>();
    __syncthreads();
    CUTE_UNROLL
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      cute::copy(ldA, tXsA(_, _, kb, st), tXrA(_, _, kb));
      cute::copy(ldB, tXsB(_, _, kb, st), tXrB(_, _, kb));
      gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), acc);
    }
    __syncthreads();
  }
  CUTE_UNROLL
  for (int i = 0; i < size(acc); ++i) tCgC(i) = half_t(acc(i));
  (void)swizzled;
}

}  // namespace hop

extern "C" __global__ void __launch_bounds__(128) gemm_sm80(int M, int N, int K, half_t const* A,
                                                           half_t const* B, half_t* C) {
  hop::sm80_body(M, N, K, A, B, C, Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, true);
}

extern "C" __global__ void __launch_bounds__(128) gemm_sm80_ca4(int M, int N, int K, half_t const* A,
                                                               half_t const* B, half_t* C) {
  hop::sm80_body(M, N, K, A, B, C, Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>, half_t>{}, false);
}

namespace hop {
constexpr int kBM = 128, kBN = 64, kBK = 64;
using SmemA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<kBM>{}, Int<kBK>{})));
using SmemB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<kBN>{}, Int<kBK>{})));

template <class TA, class TB, class TC>
__device__ void wgmma_tile(TA& sA, TB& sB, TC& acc, bool first) {
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  auto thr = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr.partition_A(sA);
  Tensor tCsB = thr.partition_B(sB);
  Tensor tCrA = thr.make_fragment_A(tCsA);
  Tensor tCrB = thr.make_fragment_B(tCsB);
  if (first) mma.accumulate_ = GMMA::ScaleOut::Zero;
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
}

template <class TC>
__device__ void store_c(TC& acc, half_t* C, int M, int N) {
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(N, _1{}));
  Tensor gC = local_tile(mC, make_shape(Int<kBM>{}, Int<kBN>{}), make_coord(blockIdx.x, blockIdx.y));
  Tensor tCgC = mma.get_slice(threadIdx.x).partition_C(gC);
  CUTE_UNROLL
  for (int i = 0; i < size(acc); ++i) tCgC(i) = half_t(acc(i));
}

template <class TC>
__device__ auto make_acc() {
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  Tensor cC = make_identity_tensor(make_shape(Int<kBM>{}, Int<kBN>{}));
  return mma.get_slice(threadIdx.x).partition_fragment_C(cC);
}
}  // namespace hop

extern "C" __global__ void __launch_bounds__(128) gemm_wgmma(int M, int N, int K, half_t const* A,
                                                            half_t const* B, half_t* C) {
  using namespace hop;
  extern __shared__ __align__(1024) unsigned char smem[];
  half_t* pA = reinterpret_cast<half_t*>(smem);
  half_t* pB = pA + kBM * kBK;
  Tensor sA = make_tensor(make_smem_ptr(pA), SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(pB), SmemB{});
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, _1{}));
  Tensor gA = local_tile(mA, make_shape(Int<kBM>{}, Int<kBK>{}), make_coord(blockIdx.x, _));
  Tensor gB = local_tile(mB, make_shape(Int<kBN>{}, Int<kBK>{}), make_coord(blockIdx.y, _));
  auto gcp = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                              Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  auto thr = gcp.get_slice(threadIdx.x);
  Tensor tAg = thr.partition_S(gA);
  Tensor tAs = thr.partition_D(sA);
  Tensor tBg = thr.partition_S(gB);
  Tensor tBs = thr.partition_D(sB);
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  Tensor acc = mma.get_slice(threadIdx.x).partition_fragment_C(make_identity_tensor(make_shape(Int<kBM>{}, Int<kBN>{})));
  int ktiles = size<3>(tAg);
  for (int kt = 0; kt < ktiles; ++kt) {
    copy(gcp, tAg(_, _, _, kt), tAs);
    copy(gcp, tBg(_, _, _, kt), tBs);
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
    wgmma_tile(sA, sB, acc, kt == 0);
    __syncthreads();
  }
  store_c(acc, C, M, N);
}

extern "C" __global__ void __launch_bounds__(128) gemm_wgmma_tma(const __grid_constant__ CUtensorMap tmA,
                                                                const __grid_constant__ CUtensorMap tmB,
                                                                int M, int N, int K, half_t* C) {
  using namespace hop;
  extern __shared__ __align__(1024) unsigned char smem[];
  half_t* pA = reinterpret_cast<half_t*>(smem);
  half_t* pB = pA + kBM * kBK;
  __shared__ uint64_t bar;
  Tensor sA = make_tensor(make_smem_ptr(pA), SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(pB), SmemB{});
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  Tensor acc = mma.get_slice(threadIdx.x).partition_fragment_C(make_identity_tensor(make_shape(Int<kBM>{}, Int<kBN>{})));
  if (threadIdx.x == 0) {
    cutlass::arch::ClusterTransactionBarrier::init(&bar, 1);
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  int ktiles = K / kBK;
  for (int kt = 0; kt < ktiles; ++kt) {
    if (threadIdx.x == 0) {
      cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(&bar, (kBM + kBN) * kBK * 2);
      // box 64 (k) x rows: A in two 64-row boxes, B in one
      SM90_TMA_LOAD_2D::copy(&tmA, &bar, 0, pA, kt * kBK, blockIdx.x * kBM);
      SM90_TMA_LOAD_2D::copy(&tmA, &bar, 0, pA + 64 * kBK, kt * kBK, blockIdx.x * kBM + 64);
      SM90_TMA_LOAD_2D::copy(&tmB, &bar, 0, pB, kt * kBK, blockIdx.y * kBN);
    }
    cutlass::arch::ClusterTransactionBarrier::wait(&bar, kt & 1);
    wgmma_tile(sA, sB, acc, kt == 0);
    __syncthreads();
  }
  store_c(acc, C, M, N);
}
