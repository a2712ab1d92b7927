// A 3-D 7-point heat stencil over a pitched volume (cudaMalloc3D, cudaMemcpy3D in and out,
// cudaMemset3D of the second buffer), each block a 32x8 tile of an x-y plane marching along z with
// the plane below and above in registers and the current plane in shared memory with a one-cell
// halo loaded by the edge threads; 8 steps ping-pong. A z-slice is read back with cudaMemcpy2D from
// the pitched buffer, and a sub-box with a cudaMemcpy3D with offsets. Checked against the host.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define TX 32
#define TY 8

__global__ void heat(cudaPitchedPtr src, cudaPitchedPtr dst, int nx, int ny, int nz, float c0, float c1) {
  __shared__ float t[TY + 2][TX + 2];
  int x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  size_t slice = src.pitch * ny;
  const char *s = (const char *)src.ptr;
  char *d = (char *)dst.ptr;
  bool in = x < nx && y < ny;
  auto at = [&](int xx, int yy, int zz) { return ((const float *)(s + zz * slice + yy * src.pitch))[xx]; };
  float below = 0, cur = in ? at(x, y, 0) : 0, above = (in && nz > 1) ? at(x, y, 1) : 0;
  for (int z = 0; z < nz; z++) {
    __syncthreads();
    t[ty][tx] = cur;
    if (threadIdx.x == 0) t[ty][0] = (x > 0 && in) ? at(x - 1, y, z) : 0;
    if (threadIdx.x == TX - 1 || x == nx - 1) t[ty][tx + 1] = (x + 1 < nx && in) ? at(x + 1, y, z) : 0;
    if (threadIdx.y == 0) t[0][tx] = (y > 0 && x < nx) ? at(x, y - 1, z) : 0;
    if (threadIdx.y == TY - 1 || y == ny - 1) t[ty + 1][tx] = (y + 1 < ny && x < nx) ? at(x, y + 1, z) : 0;
    __syncthreads();
    if (in) {
      bool edge = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
      float v = edge ? cur : c0 * cur + c1 * (t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx] + below + above);
      ((float *)(d + z * slice + y * dst.pitch))[x] = v;
    }
    below = cur; cur = above;
    above = (in && z + 2 < nz) ? at(x, y, z + 2) : 0;
  }
}

int main() {
  const int NX = 120, NY = 72, NZ = 40, STEPS = 8;
  const float C0 = 0.4f, C1 = 0.1f;
  std::vector<float> h(NX * NY * NZ), r;
  for (int z = 0; z < NZ; z++) for (int y = 0; y < NY; y++) for (int x = 0; x < NX; x++)
    h[(z * NY + y) * NX + x] = (float)((x * 3 + y * 5 + z * 7) % 17) + (x == NX / 2 && y == NY / 2 ? 100.0f : 0.0f);
  cudaExtent ext = make_cudaExtent(NX * sizeof(float), NY, NZ);
  cudaPitchedPtr a, b;
  CK(cudaMalloc3D(&a, ext));
  CK(cudaMalloc3D(&b, ext));
  CK(cudaMemset3D(b, 0, ext));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(h.data(), NX * sizeof(float), NX, NY);
  p.dstPtr = a; p.extent = ext; p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  dim3 blk(TX, TY), grd((NX + TX - 1) / TX, (NY + TY - 1) / TY);
  for (int s = 0; s < STEPS; s++) {
    heat<<<grd, blk>>>(s % 2 ? b : a, s % 2 ? a : b, NX, NY, NZ, C0, C1);
    CK(cudaGetLastError());
  }
  cudaPitchedPtr res = STEPS % 2 ? b : a;
  std::vector<float> out(NX * NY * NZ);
  cudaMemcpy3DParms q = {};
  q.srcPtr = res; q.dstPtr = make_cudaPitchedPtr(out.data(), NX * sizeof(float), NX, NY);
  q.extent = ext; q.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&q));
  // Host reference.
  r = h;
  std::vector<float> nx(r.size());
  for (int s = 0; s < STEPS; s++) {
    for (int z = 0; z < NZ; z++) for (int y = 0; y < NY; y++) for (int x = 0; x < NX; x++) {
      int i = (z * NY + y) * NX + x;
      bool edge = x == 0 || y == 0 || z == 0 || x == NX - 1 || y == NY - 1 || z == NZ - 1;
      nx[i] = edge ? r[i] : C0 * r[i] + C1 * (r[i - 1] + r[i + 1] + r[i - NX] + r[i + NX] + r[i - NX * NY] + r[i + NX * NY]);
    }
    r.swap(nx);
  }
  bool ok = true; int bad = 0; double check = 0;
  for (size_t i = 0; i < r.size(); i++) {
    if (fabsf(out[i] - r[i]) > 1e-4f * (1 + fabsf(r[i])) && bad++ < 5) printf("cell %zu got %f want %f\n", i, out[i], r[i]);
    check += out[i];
  }
  ok = bad == 0;
  // One z-slice through cudaMemcpy2D from the pitched buffer.
  const int ZS = NZ / 2;
  std::vector<float> sl(NX * NY);
  CK(cudaMemcpy2D(sl.data(), NX * sizeof(float), (char *)res.ptr + ZS * res.pitch * NY, res.pitch, NX * sizeof(float), NY, cudaMemcpyDeviceToHost));
  for (int i = 0; i < NX * NY; i++) if (sl[i] != out[ZS * NX * NY + i]) { printf("slice %d differs\n", i); ok = false; break; }
  // A 10x6x4 sub-box at (5, 7, 9) with offsets on both sides.
  std::vector<float> box(16 * 8 * 6, -1.0f);
  cudaMemcpy3DParms c = {};
  c.srcPtr = res; c.srcPos = make_cudaPos(5 * sizeof(float), 7, 9);
  c.dstPtr = make_cudaPitchedPtr(box.data(), 16 * sizeof(float), 16, 8); c.dstPos = make_cudaPos(2 * sizeof(float), 1, 1);
  c.extent = make_cudaExtent(10 * sizeof(float), 6, 4); c.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&c));
  for (int z = 0; z < 6; z++) for (int y = 0; y < 8; y++) for (int x = 0; x < 16; x++) {
    bool inside = x >= 2 && x < 12 && y >= 1 && y < 7 && z >= 1 && z < 5;
    float want = inside ? out[((z - 1 + 9) * NY + (y - 1 + 7)) * NX + (x - 2 + 5)] : -1.0f;
    if (box[(z * 8 + y) * 16 + x] != want) { printf("box (%d,%d,%d) got %f want %f\n", x, y, z, box[(z * 8 + y) * 16 + x], want); ok = false; goto boxdone; }
  }
boxdone:
  printf("pitch %zu, centre %.4f, checksum %.3f\n", a.pitch, out[(ZS * NY + NY / 2) * NX + NX / 2], check);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
