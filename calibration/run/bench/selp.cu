// The disjointness proof through a selp's predicate and byte stores, at a size worth timing: a heat
// step whose neighbours are chosen by ternaries (nvcc writes selp), then an edge mask of bytes (a
// 3x3 range of the heat, clamped by ternaries, thresholded into one byte per pixel).
#include <cstdio>
__global__ void heat(const float *in, float *out, int w, int h, float k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int l = x > 0 ? x - 1 : 0, r = x < w - 1 ? x + 1 : w - 1;
    int u = y > 0 ? y - 1 : 0, d = y < h - 1 ? y + 1 : h - 1;
    float c = in[y * w + x];
    out[y * w + x] = c + k * (in[y * w + l] + in[y * w + r] + in[u * w + x] + in[d * w + x] - 4.f * c);
}
__global__ void edges(const float *in, unsigned char *mask, int w, int h, float t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int l = x > 0 ? x - 1 : 0, r = x < w - 1 ? x + 1 : w - 1;
    int u = y > 0 ? y - 1 : 0, d = y < h - 1 ? y + 1 : h - 1;
    float gx = in[y * w + r] - in[y * w + l], gy = in[d * w + x] - in[u * w + x];
    mask[y * w + x] = gx * gx + gy * gy > t ? 255 : 0;
}
int main(int argc, char **argv)
{
    int w = argc > 1 ? atoi(argv[1]) : 1000, h = argc > 2 ? atoi(argv[2]) : 600, steps = argc > 3 ? atoi(argv[3]) : 4;
    size_t n = (size_t)w * h;
    float *a = new float[n];
    unsigned char *m = new unsigned char[n];
    for (size_t i = 0; i < n; ++i) a[i] = (float)((i * 2654435761u) >> 24) * 0.25f;
    float *d0, *d1;
    unsigned char *dm;
    cudaMalloc(&d0, n * 4); cudaMalloc(&d1, n * 4); cudaMalloc(&dm, n);
    cudaMemcpy(d0, a, n * 4, cudaMemcpyHostToDevice);
    dim3 b(32, 8), g((w + 31) / 32, (h + 7) / 8);
    for (int s = 0; s < steps; ++s) { heat<<<g, b>>>(d0, d1, w, h, 0.2f); float *t = d0; d0 = d1; d1 = t; }
    edges<<<g, b>>>(d0, dm, w, h, 40.f);
    cudaMemcpy(a, d0, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(m, dm, n, cudaMemcpyDeviceToHost);
    double s = 0; long long e = 0;
    for (size_t i = 0; i < n; ++i) { s += a[i] * (1 + i % 3); e += m[i] ? (long long)(i % 7 + 1) : 0; }
    printf("heat %.4f edges %lld\n", s, e);
    return 0;
}
