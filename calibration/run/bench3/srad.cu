// Anisotropic diffusion of an image (the srad shape): `expand` maps the image through expf;
// per iteration the host copies the image back and sums it and its squares over a region of
// interest (the speckle scale q0), `coeff` loads a 16x16 tile with its neighbours into shared
// memory and computes the diffusion coefficient (float divisions, a clamp), `update` takes the
// divergence and steps the image; `compress` maps it back through logf.
#include <cstdio>
#include <cmath>
#define T 16
__global__ void expand(float *j, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) j[i] = expf(j[i] / 255.f);
}
__global__ void compress(float *j, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) j[i] = logf(j[i]) * 255.f;
}
__global__ void coeff(const float *J, float *C, float *dN, float *dS, float *dW, float *dE, int rows, int cols, float q0sqr)
{
    __shared__ float t[T + 2][T + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * T + ty, c = blockIdx.x * T + tx;
    int idx = r * cols + c;
    float jc = J[idx];
    t[ty + 1][tx + 1] = jc;
    if (ty == 0) t[0][tx + 1] = J[(r == 0 ? 0 : r - 1) * cols + c];
    if (ty == T - 1) t[T + 1][tx + 1] = J[(r == rows - 1 ? r : r + 1) * cols + c];
    if (tx == 0) t[ty + 1][0] = J[r * cols + (c == 0 ? 0 : c - 1)];
    if (tx == T - 1) t[ty + 1][T + 1] = J[r * cols + (c == cols - 1 ? c : c + 1)];
    __syncthreads();
    float n = t[ty][tx + 1] - jc, s = t[ty + 2][tx + 1] - jc;
    float w = t[ty + 1][tx] - jc, e = t[ty + 1][tx + 2] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.f / 16.f) * (l * l);
    float den = 1.f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.f + q0sqr));
    float cc = 1.f / (1.f + den);
    if (cc < 0.f) cc = 0.f;
    else if (cc > 1.f) cc = 1.f;
    C[idx] = cc; dN[idx] = n; dS[idx] = s; dW[idx] = w; dE[idx] = e;
}
__global__ void update(float *J, const float *C, const float *dN, const float *dS, const float *dW, const float *dE, int rows, int cols, float lambda)
{
    __shared__ float cs[T + 1][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * T + ty, c = blockIdx.x * T + tx;
    int idx = r * cols + c;
    cs[ty][tx] = C[idx];
    if (ty == T - 1) cs[T][tx] = C[(r == rows - 1 ? r : r + 1) * cols + c];
    if (tx == T - 1) cs[ty][T] = C[r * cols + (c == cols - 1 ? c : c + 1)];
    __syncthreads();
    float cN = cs[ty][tx], cS = cs[ty + 1][tx], cW = cs[ty][tx], cE = cs[ty][tx + 1];
    float d = cN * dN[idx] + cS * dS[idx] + cW * dW[idx] + cE * dE[idx];
    J[idx] = J[idx] + 0.25f * lambda * d;
}
int main()
{
    const int rows = 256, cols = 256, n = rows * cols, iters = 4;
    const int r1 = 0, r2 = 63, c1 = 0, c2 = 63;
    const float lambda = 0.5f;
    float *img = new float[n];
    unsigned s = 9;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            s = s * 1664525u + 1013904223u;
            float base = ((r / 32 + c / 32) & 1) ? 180.f : 60.f;
            img[r * cols + c] = base + ((s >> 10) % 61) - 30.f;
        }
    float *dJ, *dC, *dn, *ds, *dw, *de;
    cudaMalloc(&dJ, n * 4); cudaMalloc(&dC, n * 4);
    cudaMalloc(&dn, n * 4); cudaMalloc(&ds, n * 4); cudaMalloc(&dw, n * 4); cudaMalloc(&de, n * 4);
    cudaMemcpy(dJ, img, n * 4, cudaMemcpyHostToDevice);
    expand<<<(n + 255) / 256, 256>>>(dJ, n);
    dim3 blk(T, T), grd(cols / T, rows / T);
    float *J = new float[n];
    double q0first = 0;
    for (int it = 0; it < iters; ++it) {
        cudaMemcpy(J, dJ, n * 4, cudaMemcpyDeviceToHost);
        double sum = 0, sum2 = 0;
        for (int r = r1; r <= r2; ++r)
            for (int c = c1; c <= c2; ++c) { double v = J[r * cols + c]; sum += v; sum2 += v * v; }
        double size = (double)(r2 - r1 + 1) * (c2 - c1 + 1);
        double mean = sum / size, var = sum2 / size - mean * mean;
        float q0sqr = (float)(var / (mean * mean));
        if (it == 0) q0first = q0sqr;
        coeff<<<grd, blk>>>(dJ, dC, dn, ds, dw, de, rows, cols, q0sqr);
        update<<<grd, blk>>>(dJ, dC, dn, ds, dw, de, rows, cols, lambda);
    }
    compress<<<(n + 255) / 256, 256>>>(dJ, n);
    cudaMemcpy(J, dJ, n * 4, cudaMemcpyDeviceToHost);
    double tot = 0, dev_in = 0, dev_out = 0;
    for (int i = 0; i < n; ++i) tot += J[i];
    // smoothing must shrink the noise inside a flat square
    for (int r = 4; r < 28; ++r)
        for (int c = 4; c < 28; ++c) { dev_in += fabs(img[r * cols + c] - 60.0); dev_out += fabs(J[r * cols + c] - 60.0); }
    bool ok = dev_out < dev_in && tot > 0.9 * 120.0 * n && tot < 1.1 * 120.0 * n;
    printf("srad %dx%d iterations %d\n", rows, cols, iters);
    printf("  q0^2 %.6f  mean %.4f  noise %.2f -> %.2f\n", q0first, tot / n, dev_in / 576, dev_out / 576);
    printf("  %s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
