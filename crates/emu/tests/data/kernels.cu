// Classic kernels used to test the emulator against CPU references.
#define TILE 32

extern "C" __global__ void transpose(const float *in, float *out, int n) {
    __shared__ float t[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n) t[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n) out[y * n + x] = t[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void reduce(const int *in, int *out, int n) {
    extern __shared__ int s[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

#define MT 16
extern "C" __global__ void matmul(const float *a, const float *b, float *c, int n) {
    __shared__ float as[MT][MT], bs[MT][MT];
    int row = blockIdx.y * MT + threadIdx.y, col = blockIdx.x * MT + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < n; k0 += MT) {
        as[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < MT; ++k) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

extern "C" __global__ void scan(const int *in, int *out) {
    __shared__ int s[2][256];
    int tid = threadIdx.x, p = 0;
    s[0][tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int v = s[p][tid];
        if (tid >= off) v += s[p][tid - off];
        s[1 - p][tid] = v;
        p = 1 - p;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = s[p][tid];
}

extern "C" __global__ void shfl_reduce(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    unsigned lane = threadIdx.x & 31;
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0.f);
    if (lane == 0) {
        out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
        out[gridDim.x * blockDim.x / 32 + (blockIdx.x * blockDim.x + threadIdx.x) / 32] = __int_as_float(ballot);
    }
}

extern "C" __global__ void histogram(const unsigned char *in, unsigned *hist, int n) {
    __shared__ unsigned h[64];
    for (int i = threadIdx.x; i < 64; i += blockDim.x) h[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] & 63], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 64; i += blockDim.x) atomicAdd(&hist[i], h[i]);
}

__device__ __noinline__ int collatz_steps(int x) {
    int s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++s;
    }
    return s;
}

extern "C" __global__ void divergent(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int r;
    if (v % 3 == 0) r = collatz_steps(v + 1);
    else if (v % 3 == 1) r = -v * 7;
    else { r = 0; for (int k = 0; k < (v & 15); ++k) r += k * v; }
    out[i] = r;
}

extern "C" __global__ void f64ops(const double *in, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = in[i];
        out[i] = sqrt(fabs(x)) * 1.5 + x / 3.0 - (double)(long long)(x * 4.0) + fmin(x, 0.25);
    }
}

extern "C" __global__ void vec4copy(const float4 *in, float4 *out, float2 *out2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = make_float4(v.w, v.z, v.y, v.x);
        out2[i] = make_float2(v.x + v.y, v.z * v.w);
    }
}

extern "C" __global__ void intops(const unsigned *in, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i];
        int s = (int)x;
        out[8 * i + 0] = __popc(x) + __clz(x);
        out[8 * i + 1] = __brev(x) ^ (x >> 7);
        out[8 * i + 2] = (unsigned)(s / 7) + (unsigned)(s % 5);
        out[8 * i + 3] = __umulhi(x, 2654435761u);
        out[8 * i + 4] = (unsigned)min(s, 1000) + max(x, 77u);
        out[8 * i + 5] = (x >> 3) & 0x1f | ((x & 7) << 20);
        out[8 * i + 6] = (unsigned)((unsigned long long)x * x >> 17);
        out[8 * i + 7] = __float_as_uint((float)s * 0.5f + (float)x);
    }
}
