//! CUDA C++ sources of the lab's kernels (compiled with NVRTC at run time). Written for this project
//! after the seed documents' descriptions; `extern "C"` keeps the names unmangled.

/// Seed 000: square (32x32) and rectangular (32x16) shared-memory tiles, read and written by rows or
/// columns, static and dynamic, with and without padding. Each thread copies one input element
/// through the tile.
pub const SMEM: &str = r#"
#define BDIMX 32
#define BDIMY 32
#define RDIMX 32
#define RDIMY 16
#define IPAD 1
#define RPAD 2
#define PROLOGUE unsigned base = blockIdx.x * blockDim.x * blockDim.y; \
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;

extern "C" __global__ void sqRowRow(const int *in, int *out) {
    __shared__ int tile[BDIMY][BDIMX];
    PROLOGUE
    tile[threadIdx.y][threadIdx.x] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[threadIdx.y][threadIdx.x];
}
extern "C" __global__ void sqColCol(const int *in, int *out) {
    __shared__ int tile[BDIMX][BDIMY];
    PROLOGUE
    tile[threadIdx.x][threadIdx.y] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void sqRowCol(const int *in, int *out) {
    __shared__ int tile[BDIMY][BDIMX];
    PROLOGUE
    tile[threadIdx.y][threadIdx.x] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void sqRowColDyn(const int *in, int *out) {
    extern __shared__ int dtile[];
    PROLOGUE
    unsigned row = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned col = threadIdx.x * blockDim.y + threadIdx.y;
    dtile[row] = in[base + idx];
    __syncthreads();
    out[base + idx] = dtile[col];
}
extern "C" __global__ void sqRowColPad(const int *in, int *out) {
    __shared__ int tile[BDIMY][BDIMX + IPAD];
    PROLOGUE
    tile[threadIdx.y][threadIdx.x] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void sqRowColDynPad(const int *in, int *out) {
    extern __shared__ int dtile[];
    PROLOGUE
    unsigned row = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned col = threadIdx.x * (blockDim.x + IPAD) + threadIdx.y;
    dtile[row] = in[base + idx];
    __syncthreads();
    out[base + idx] = dtile[col];
}
extern "C" __global__ void rectRowRow(const int *in, int *out) {
    __shared__ int tile[RDIMY][RDIMX];
    PROLOGUE
    tile[threadIdx.y][threadIdx.x] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[threadIdx.y][threadIdx.x];
}
extern "C" __global__ void rectColCol(const int *in, int *out) {
    __shared__ int tile[RDIMX][RDIMY];
    PROLOGUE
    tile[threadIdx.x][threadIdx.y] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void rectRowCol(const int *in, int *out) {
    __shared__ int tile[RDIMY][RDIMX];
    PROLOGUE
    unsigned irow = idx / blockDim.y, icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[icol][irow];
}
extern "C" __global__ void rectRowColDyn(const int *in, int *out) {
    extern __shared__ int dtile[];
    PROLOGUE
    unsigned irow = idx / blockDim.y, icol = idx % blockDim.y;
    unsigned col = icol * blockDim.x + irow;
    dtile[idx] = in[base + idx];
    __syncthreads();
    out[base + idx] = dtile[col];
}
extern "C" __global__ void rectRowColPad(const int *in, int *out) {
    __shared__ int tile[RDIMY][RDIMX + RPAD];
    PROLOGUE
    unsigned irow = idx / blockDim.y, icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = in[base + idx];
    __syncthreads();
    out[base + idx] = tile[icol][irow];
}
extern "C" __global__ void rectRowColDynPad(const int *in, int *out) {
    extern __shared__ int dtile[];
    PROLOGUE
    unsigned irow = idx / blockDim.y, icol = idx % blockDim.y;
    unsigned row = threadIdx.y * (blockDim.x + RPAD) + threadIdx.x;
    unsigned col = icol * (blockDim.x + RPAD) + irow;
    dtile[row] = in[base + idx];
    __syncthreads();
    out[base + idx] = dtile[col];
}
"#;

/// Seed 002: a branch on the thread's parity (divergent) and on its warp's parity (uniform).
pub const DIVERGENCE: &str = r#"
extern "C" __global__ void mathKernel1(float *c) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia = 0.0f, ib = 0.0f;
    if (tid % 2 == 0) { ia = 100.0f; } else { ib = 200.0f; }
    c[tid] = ia + ib;
}
extern "C" __global__ void mathKernel2(float *c) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia = 0.0f, ib = 0.0f;
    if ((tid / warpSize) % 2 == 0) { ia = 100.0f; } else { ib = 200.0f; }
    c[tid] = ia + ib;
}
"#;

/// Seeds 003/004: adjacent difference, global, shared, shared with a trailing barrier, dynamic
/// shared, and a four-wide vector version.
pub const ADJDIFF: &str = r#"
#define MAXB 1024
extern "C" __global__ void adjGlobal(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i > 0 ? in[i] - in[i - 1] : in[i];
}
extern "C" __global__ void adjShared(const float *in, float *out, int n) {
    __shared__ float s[MAXB];
    int tx = threadIdx.x, i = blockIdx.x * blockDim.x + tx;
    if (i < n) s[tx] = in[i];
    __syncthreads();
    if (i < n) out[i] = tx > 0 ? s[tx] - s[tx - 1] : (i > 0 ? s[tx] - in[i - 1] : s[tx]);
}
extern "C" __global__ void adjShared2(const float *in, float *out, int n) {
    __shared__ float s[MAXB];
    int tx = threadIdx.x, i = blockIdx.x * blockDim.x + tx;
    if (i < n) s[tx] = in[i];
    __syncthreads();
    if (i < n) out[i] = tx > 0 ? s[tx] - s[tx - 1] : (i > 0 ? s[tx] - in[i - 1] : s[tx]);
    __syncthreads();
}
extern "C" __global__ void adjDynamic(const float *in, float *out, int n) {
    extern __shared__ float ds[];
    int tx = threadIdx.x, i = blockIdx.x * blockDim.x + tx;
    if (i < n) ds[tx] = in[i];
    __syncthreads();
    if (i < n) out[i] = tx > 0 ? ds[tx] - ds[tx - 1] : (i > 0 ? ds[tx] - in[i - 1] : ds[tx]);
}
extern "C" __global__ void adjVec4(const float *in, float *out, int n4) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n4) return;
    float4 v = reinterpret_cast<const float4 *>(in)[j];
    float prev = j > 0 ? in[4 * j - 1] : 0.0f;
    float4 o = make_float4(j > 0 ? v.x - prev : v.x, v.y - v.x, v.z - v.y, v.w - v.z);
    reinterpret_cast<float4 *>(out)[j] = o;
}
"#;

/// Matrix transpose: naive, shared tile, padded tile, and a 64-wide padded tile.
pub const TRANSPOSE: &str = r#"
#define TILE 32
#define BR 8
extern "C" __global__ void trNaive(const float *in, float *out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BR) out[(size_t)x * n + y + j] = in[(size_t)(y + j) * n + x];
}
extern "C" __global__ void trShared(const float *in, float *out, int n) {
    __shared__ float t[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BR) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BR) out[(size_t)(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}
extern "C" __global__ void trPadded(const float *in, float *out, int n) {
    __shared__ float t[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BR) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BR) out[(size_t)(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}
#define T64 64
extern "C" __global__ void trPadded64(const float *in, float *out, int n) {
    __shared__ float t[T64][T64 + 1];
    int x = blockIdx.x * T64 + threadIdx.x, y = blockIdx.y * T64 + threadIdx.y;
    #pragma unroll
    for (int j = 0; j < T64; j += BR) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T64 + threadIdx.x; y = blockIdx.x * T64 + threadIdx.y;
    #pragma unroll
    for (int j = 0; j < T64; j += BR) out[(size_t)(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}
extern "C" __global__ void copyKernel(const float *in, float *out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BR) out[(size_t)(y + j) * n + x] = in[(size_t)(y + j) * n + x];
}
"#;

/// Seed 001's stream pipeline kernel (`iters` dependent fused multiply-adds per element, converging
/// to the input value, so the CPU reference can stop at the fixed point) and the zero-copy reader of
/// mapped host memory.
pub const STREAMS: &str = r#"
extern "C" __global__ void streamK(const float *in, float *out, int n, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float h = 0.5f * in[i], v = 0.0f;
    for (int k = 0; k < iters; ++k) v = __fmaf_rn(v, 0.5f, h);
    out[i] = v;
}
extern "C" __global__ void zeroCopy(const float *in, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i] * 2.0f;
}
"#;

/// A register-hungry kernel for the -maxrregcount sweep.
pub const REGS: &str = r#"
extern "C" __global__ void regHungry(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a[32];
    #pragma unroll
    for (int k = 0; k < 32; ++k) a[k] = in[(i + k * 977) % n];
    float s = 0.0f;
    #pragma unroll
    for (int r = 0; r < 8; ++r) {
        #pragma unroll
        for (int k = 0; k < 32; ++k) s = __fmaf_rn(a[k], a[(k + r + 1) % 32], s);
    }
    out[i] = s;
}
"#;
