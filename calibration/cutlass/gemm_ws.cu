// A CUTLASS 3 warp-specialised GEMM (TMA loads, wgmma, a 2x1x1 cluster) as a whole program:
// D = A * B^T in fp16 with fp32 accumulation, checked against a host reference.
//   gemm_ws [cooperative|pingpong] [M N K]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cmath>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;
using T = cutlass::half_t;
using Acc = float;

template <class MainSchedule, class EpiSchedule, class Tile>
struct Config {
  using Cluster = Shape<_2, _1, _1>;
  using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster,
      cutlass::epilogue::collective::EpilogueTileAuto, Acc, Acc,
      T, cutlass::layout::RowMajor, 8, T, cutlass::layout::RowMajor, 8, EpiSchedule>::CollectiveOp;
  using Main = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
      T, cutlass::layout::RowMajor, 8, T, cutlass::layout::ColumnMajor, 8, Acc, Tile, Cluster,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>,
      MainSchedule>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Main, Epi>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

using Coop = Config<cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                    cutlass::epilogue::TmaWarpSpecializedCooperative, Shape<_128, _128, _64>>;
using Ping = Config<cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                    cutlass::epilogue::TmaWarpSpecialized, Shape<_64, _128, _64>>;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <class C>
int run(int M, int N, int K) {
  using Gemm = typename C::Gemm;
  std::vector<T> a(size_t(M) * K), b(size_t(N) * K), c(size_t(M) * N), d(size_t(M) * N);
  unsigned s = 12345;
  auto rnd = [&] { s = s * 1664525u + 1013904223u; return int((s >> 24) % 9) - 4; };
  for (auto &x : a) x = T(float(rnd()) * 0.25f);
  for (auto &x : b) x = T(float(rnd()) * 0.25f);
  for (auto &x : c) x = T(float(rnd()));
  T *dA, *dB, *dC, *dD;
  CHECK(cudaMalloc(&dA, a.size() * 2)); CHECK(cudaMalloc(&dB, b.size() * 2));
  CHECK(cudaMalloc(&dC, c.size() * 2)); CHECK(cudaMalloc(&dD, d.size() * 2));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, c.data(), c.size() * 2, cudaMemcpyHostToDevice));
  auto sA = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideA{}, {M, K, 1});
  auto sB = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideB{}, {N, K, 1});
  auto sC = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideC{}, {M, N, 1});
  auto sD = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideD{}, {M, N, 1});
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
                                {dA, sA, dB, sB}, {{1.0f, 0.5f}, dC, sC, dD, sD}, hw};
  Gemm gemm;
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) { printf("cannot implement\n"); return 1; }
  void *ws = nullptr;
  size_t wsb = Gemm::get_workspace_size(args);
  if (wsb) CHECK(cudaMalloc(&ws, wsb));
  if (gemm.initialize(args, ws) != cutlass::Status::kSuccess) { printf("initialize failed\n"); return 1; }
  if (gemm.run() != cutlass::Status::kSuccess) { printf("run failed\n"); return 1; }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(d.data(), dD, d.size() * 2, cudaMemcpyDeviceToHost));
  // host reference: the products are exact in fp32 (quarter-integers), so the sums are too
  int bad = 0;
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0;
      for (int k = 0; k < K; k++) acc += float(a[size_t(i) * K + k]) * float(b[size_t(j) * K + k]);
      float want = float(T(acc + 0.5f * float(c[size_t(i) * N + j])));
      float got = float(d[size_t(i) * N + j]);
      if (got != want && bad++ < 5) printf("D[%d][%d] = %g, want %g\n", i, j, got, want);
      uint16_t raw;
      memcpy(&raw, &d[size_t(i) * N + j], 2);
      h = (h ^ raw) * 1099511628211ull;
    }
  printf("M=%d N=%d K=%d: %d wrong, hash %016llx\n", M, N, K, bad, h);
  printf(bad ? "Failed\n" : "Passed\n");
  return bad != 0;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "cooperative";
  int M = argc > 4 ? atoi(argv[2]) : 256, N = argc > 4 ? atoi(argv[3]) : 256, K = argc > 4 ? atoi(argv[4]) : 128;
  printf("gemm %s\n", which);
  return strcmp(which, "pingpong") == 0 ? run<Ping>(M, N, K) : run<Coop>(M, N, K);
}
