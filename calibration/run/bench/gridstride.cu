// gridstride: saxpy by a grid-stride loop (`for (i = tid; i < n; i += blockDim.x * gridDim.x)`)
// with a small grid over a long array, then a pointer walk with a 64-bit stride (each thread
// sums a column of a row-major matrix whose row pitch is a size_t in floats, and writes it back
// scaled, row by row). A pitch that is not a multiple of 8 floats moves each lane by a step that
// is not a multiple of a 32-byte sector. Checked against the host.
//   gridstride [LOG2_N [BLOCKS [THREADS [PITCH [ROWS]]]]]   (default 24 32 256 8192 4096)
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void columnScale(float *m, size_t pitch, int rows, int cols, float *sums) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float *p = m + c;
  float s = 0.f;
  for (int r = 0; r < rows; ++r) {
    s += *p;
    *p = s;
    p += pitch;
  }
  sums[c] = s;
}

int main(int argc, char **argv) {
  int ln = argc > 1 ? atoi(argv[1]) : 24;
  int blocks = argc > 2 ? atoi(argv[2]) : 32;
  int threads = argc > 3 ? atoi(argv[3]) : 256;
  size_t pitch = argc > 4 ? strtoull(argv[4], 0, 10) : 8192;
  int rows = argc > 5 ? atoi(argv[5]) : 4096;
  if (ln < 5 || ln > 28 || blocks < 1 || threads < 1 || threads > 1024 || pitch < 1 || rows < 0) {
    fprintf(stderr, "usage: gridstride [LOG2_N [BLOCKS [THREADS [PITCH [ROWS]]]]]\n");
    return 2;
  }
  int n = 1 << ln;
  std::vector<float> hx(n), hy(n), hr(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 100);
    hy[i] = (float)(i % 37);
  }
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<blocks, threads>>>(n, 2.0f, x, y);
  cudaMemcpy(hr.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (int i = 0; i < n; ++i) wrong += hr[i] != 2.0f * hx[i] + hy[i];
  printf("saxpy n %d <<<%d, %d>>>: %zu wrong\n", n, blocks, threads, wrong);
  // the pointer walk: cols = min(pitch, 1024) columns of rows x pitch floats
  int cols = pitch < 1024 ? (int)pitch : 1024;
  size_t cells = pitch * (size_t)rows;
  std::vector<float> hm(cells), hm2(cells), hs(cols);
  for (size_t i = 0; i < cells; ++i) hm[i] = (float)(i % 3);
  float *m, *sums;
  cudaMalloc(&m, cells * sizeof(float) + 4);
  cudaMalloc(&sums, cols * sizeof(float));
  cudaMemcpy(m, hm.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
  columnScale<<<(cols + 127) / 128, 128>>>(m, pitch, rows, cols, sums);
  cudaMemcpy(hm2.data(), m, cells * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hs.data(), sums, cols * sizeof(float), cudaMemcpyDeviceToHost);
  size_t wrong2 = 0;
  for (int c = 0; c < cols; ++c) {
    float s = 0.f;
    for (int r = 0; r < rows; ++r) {
      size_t i = r * pitch + c;
      s += hm[i];
      wrong2 += hm2[i] != s;
    }
    wrong2 += hs[c] != s;
  }
  printf("columnScale pitch %zu rows %d cols %d: %zu wrong\n", pitch, rows, cols, wrong2);
  return wrong + wrong2 != 0;
}
