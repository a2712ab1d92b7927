// Image filters: a 5x5 convolution with clamped borders (weights in constant memory), a Sobel edge
// magnitude with a threshold, and a 3x3 median by a small sorting network (data-dependent swaps).
#include <cstdio>
__constant__ float wgt[25];
__global__ void conv5(const unsigned char *img, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.f;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
            acc += wgt[(dy + 2) * 5 + dx + 2] * img[yy * w + xx];
        }
    out[y * w + x] = acc;
}
__global__ void sobel(const float *in, unsigned char *edge, int w, int h, float thr)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { edge[y * w + x] = 0; return; }
    float gx = in[(y - 1) * w + x + 1] + 2 * in[y * w + x + 1] + in[(y + 1) * w + x + 1]
             - in[(y - 1) * w + x - 1] - 2 * in[y * w + x - 1] - in[(y + 1) * w + x - 1];
    float gy = in[(y + 1) * w + x - 1] + 2 * in[(y + 1) * w + x] + in[(y + 1) * w + x + 1]
             - in[(y - 1) * w + x - 1] - 2 * in[(y - 1) * w + x] - in[(y - 1) * w + x + 1];
    float m = sqrtf(gx * gx + gy * gy);
    edge[y * w + x] = m > thr ? 255 : (m > thr / 2 ? 128 : 0);
}
__global__ void median3(const unsigned char *in, unsigned char *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    unsigned char v[9];
    int k = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
            v[k++] = in[yy * w + xx];
        }
    for (int i = 1; i < 9; ++i) {
        unsigned char t = v[i]; int j = i - 1;
        while (j >= 0 && v[j] > t) { v[j + 1] = v[j]; --j; }
        v[j + 1] = t;
    }
    out[y * w + x] = v[4];
}
int main()
{
    const int w = 96, h = 64, n = w * h;
    unsigned char *img = new unsigned char[n];
    for (int i = 0; i < n; ++i) img[i] = (unsigned char)(((i % w) * 3 + (i / w) * 5 + (i * 2654435761u >> 27)) & 255);
    float hw[25]; float s = 0;
    for (int i = 0; i < 25; ++i) { hw[i] = 1.f + (i % 5 == 2) + (i / 5 == 2); s += hw[i]; }
    for (int i = 0; i < 25; ++i) hw[i] /= s;
    cudaMemcpyToSymbol(wgt, hw, sizeof hw);
    unsigned char *dimg, *dedge, *dmed; float *dconv;
    cudaMalloc(&dimg, n); cudaMalloc(&dedge, n); cudaMalloc(&dmed, n); cudaMalloc(&dconv, n * 4);
    cudaMemcpy(dimg, img, n, cudaMemcpyHostToDevice);
    dim3 b(16, 16), g((w + 15) / 16, (h + 15) / 16);
    conv5<<<g, b>>>(dimg, dconv, w, h);
    sobel<<<g, b>>>(dconv, dedge, w, h, 60.f);
    median3<<<g, b>>>(dimg, dmed, w, h);
    median3<<<g, dim3(32, 8)>>>(dedge, dmed, w, h);
    unsigned char *e = new unsigned char[n], *m = new unsigned char[n];
    cudaMemcpy(e, dedge, n, cudaMemcpyDeviceToHost);
    cudaMemcpy(m, dmed, n, cudaMemcpyDeviceToHost);
    long long se = 0, sm = 0;
    for (int i = 0; i < n; ++i) { se += e[i] * (1 + i % 3); sm += m[i] * (1 + i % 5); }
    printf("conv edges %lld median %lld\n", se, sm);
    return 0;
}
