// All-pairs n-body forces, O(N^2), in the GPU Gems 3 style: each block stages a tile of body
// positions in shared memory and every thread sums the accelerations from the tile's bodies on its
// own; then a leapfrog step. STEPS steps; the result is checked against the same sums on the host.
//   nbody [N [STEPS]]   (default 4096 bodies, 1 step; N a multiple of 256)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int BLOCK = 256;
constexpr float SOFT = 1e-2f;
constexpr float DT = 1e-3f;

__global__ void forces(const float4 *pos, float4 *vel, int n) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float ax = 0, ay = 0, az = 0;
  for (int base = 0; base < n; base += BLOCK) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < BLOCK; ++j) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float d2 = dx * dx + dy * dy + dz * dz + SOFT;
      float inv = rsqrtf(d2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  float4 v = vel[i];
  v.x += ax * DT;
  v.y += ay * DT;
  v.z += az * DT;
  vel[i] = v;
}

__global__ void move(float4 *pos, const float4 *vel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pos[i].x += vel[i].x * DT;
    pos[i].y += vel[i].y * DT;
    pos[i].z += vel[i].z * DT;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  int steps = argc > 2 ? atoi(argv[2]) : 1;
  if (n < BLOCK || n % BLOCK != 0 || steps < 1) {
    fprintf(stderr, "usage: nbody [N, a multiple of 256 [STEPS]]\n");
    return 2;
  }
  std::vector<float4> p(n), v(n), gp(n), gv(n);
  unsigned seed = 12345;
  auto rnd = [&] {
    seed = seed * 1664525u + 1013904223u;
    return (float)(seed >> 8) / (float)(1 << 24) - 0.5f;
  };
  for (int i = 0; i < n; ++i) {
    p[i] = make_float4(rnd(), rnd(), rnd(), 1.0f / n);
    v[i] = make_float4(0, 0, 0, 0);
  }
  float4 *dp, *dv;
  cudaMalloc(&dp, n * sizeof(float4));
  cudaMalloc(&dv, n * sizeof(float4));
  cudaMemcpy(dp, p.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; ++s) {
    forces<<<n / BLOCK, BLOCK>>>(dp, dv, n);
    move<<<n / BLOCK, BLOCK>>>(dp, dv, n);
  }
  cudaMemcpy(gp.data(), dp, n * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaMemcpy(gv.data(), dv, n * sizeof(float4), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("nbody: %s\n", cudaGetErrorString(e));
    return 1;
  }
  // the host's sums in the same order (rsqrtf and the fused multiply-adds differ in the last
  // bits: compared with a tolerance)
  for (int s = 0; s < steps; ++s) {
    std::vector<float4> a(n);
    for (int i = 0; i < n; ++i) {
      double ax = 0, ay = 0, az = 0;
      for (int j = 0; j < n; ++j) {
        double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
        double d2 = dx * dx + dy * dy + dz * dz + SOFT;
        double s3 = p[j].w / (d2 * sqrt(d2));
        ax += dx * s3;
        ay += dy * s3;
        az += dz * s3;
      }
      v[i].x += ax * DT;
      v[i].y += ay * DT;
      v[i].z += az * DT;
    }
    for (int i = 0; i < n; ++i) {
      p[i].x += v[i].x * DT;
      p[i].y += v[i].y * DT;
      p[i].z += v[i].z * DT;
    }
  }
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    double d = fabs(gv[i].x - v[i].x) + fabs(gv[i].y - v[i].y) + fabs(gv[i].z - v[i].z);
    double m = fabs(v[i].x) + fabs(v[i].y) + fabs(v[i].z) + 1e-6;
    if (d / m > worst) worst = d / m;
  }
  bool ok = worst < 1e-3;
  printf("nbody: %d bodies, %d steps, worst relative velocity error %.2e: %s\n", n, steps, worst,
         ok ? "PASSED" : "FAILED");
  cudaFree(dp);
  cudaFree(dv);
  return ok ? 0 : 1;
}
