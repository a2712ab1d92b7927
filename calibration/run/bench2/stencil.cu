// A 3-D 7-point Jacobi stencil with a shared tile and halo (boundary branches on every face) and a
// 2-D 5-point heat step with clamped edges, iterated from the host.
#include <cstdio>
#define TX 16
#define TY 8
__global__ void jacobi3d(const float *in, float *out, int nx, int ny, int nz)
{
    __shared__ float t[TY + 2][TX + 2];
    int x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    bool inside = x < nx && y < ny;
    float below = 0.f, cur = 0.f, above = 0.f;
    if (inside) { cur = in[y * nx + x]; above = nz > 1 ? in[nx * ny + y * nx + x] : 0.f; }
    for (int z = 0; z < nz; ++z) {
        __syncthreads();
        t[ly][lx] = cur;
        if (threadIdx.x == 0) t[ly][0] = (x > 0 && inside) ? in[z * nx * ny + y * nx + x - 1] : cur;
        if (threadIdx.x == TX - 1 || x == nx - 1) t[ly][lx + 1] = (x + 1 < nx && inside) ? in[z * nx * ny + y * nx + x + 1] : cur;
        if (threadIdx.y == 0) t[0][lx] = (y > 0 && inside) ? in[z * nx * ny + (y - 1) * nx + x] : cur;
        if (threadIdx.y == TY - 1 || y == ny - 1) t[ly + 1][lx] = (y + 1 < ny && inside) ? in[z * nx * ny + (y + 1) * nx + x] : cur;
        __syncthreads();
        if (inside) {
            float r;
            if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1 || z == 0 || z == nz - 1)
                r = cur;
            else
                r = 0.4f * cur + 0.1f * (t[ly][lx - 1] + t[ly][lx + 1] + t[ly - 1][lx] + t[ly + 1][lx] + below + above);
            out[z * nx * ny + y * nx + x] = r;
        }
        below = cur; cur = above;
        if (inside && z + 2 < nz) above = in[(z + 2) * nx * ny + y * nx + x];
    }
}

__global__ void heat2d(const float *in, float *out, int w, int h, float k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;
    int yu = y > 0 ? y - 1 : 0, yd = y < h - 1 ? y + 1 : h - 1;
    float c = in[y * w + x];
    float v = c + k * (in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x] - 4.f * c);
    if (v > 100.f) v = 100.f;
    out[y * w + x] = v;
}

int main()
{
    const int nx = 45, ny = 30, nz = 12, w = 70, h = 50;
    int n3 = nx * ny * nz, n2 = w * h;
    float *a = new float[n3], *b2 = new float[n2];
    for (int i = 0; i < n3; ++i) a[i] = (float)((i * 37) % 101) * 0.5f;
    for (int i = 0; i < n2; ++i) b2[i] = (i % 13 == 0) ? 90.f : (float)(i % 7);
    float *d0, *d1, *e0, *e1;
    cudaMalloc(&d0, n3 * 4); cudaMalloc(&d1, n3 * 4); cudaMalloc(&e0, n2 * 4); cudaMalloc(&e1, n2 * 4);
    cudaMemcpy(d0, a, n3 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(e0, b2, n2 * 4, cudaMemcpyHostToDevice);
    dim3 b3(TX, TY), g3((nx + TX - 1) / TX, (ny + TY - 1) / TY);
    for (int it = 0; it < 4; ++it) { jacobi3d<<<g3, b3>>>(d0, d1, nx, ny, nz); float *t = d0; d0 = d1; d1 = t; }
    dim3 b2d(32, 4), g2((w + 31) / 32, (h + 3) / 4);
    for (int it = 0; it < 4; ++it) { heat2d<<<g2, b2d>>>(e0, e1, w, h, 0.2f); float *t = e0; e0 = e1; e1 = t; }
    cudaMemcpy(a, d0, n3 * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(b2, e0, n2 * 4, cudaMemcpyDeviceToHost);
    double s3 = 0, s2 = 0;
    for (int i = 0; i < n3; ++i) s3 += a[i] * (1 + i % 3);
    for (int i = 0; i < n2; ++i) s2 += b2[i] * (1 + i % 5);
    printf("jacobi3d %.4f heat2d %.4f\n", s3, s2);
    return 0;
}
