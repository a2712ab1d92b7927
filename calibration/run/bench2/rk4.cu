// An RK4 ODE solver, one system per thread: a damped, driven oscillator in double precision
// (sin, cos, exp, pow) and a float logistic/decay model (expf, powf, __sinf-free sinf/cosf, float
// divisions), stepped a data-dependent number of times with an adaptive step check.
#include <cstdio>
#include <cmath>
__device__ void fd(double t, const double *y, double *dy, double k, double w)
{
    dy[0] = y[1];
    dy[1] = -k * y[0] - 0.1 * y[1] + exp(-0.05 * t) * cos(w * t) + 0.01 * pow(fabs(y[0]) + 1.0, 1.5) * sin(t);
}
__global__ void rk4d(const double *k, const double *w, double *out, int n, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double y[2] = {1.0, 0.0}, t = 0.0, h = 0.05;
    double a[2], b[2], c[2], d[2], tmp[2];
    for (int s = 0; s < steps + (i % 5); ++s) {
        fd(t, y, a, k[i], w[i]);
        for (int j = 0; j < 2; ++j) tmp[j] = y[j] + 0.5 * h * a[j];
        fd(t + 0.5 * h, tmp, b, k[i], w[i]);
        for (int j = 0; j < 2; ++j) tmp[j] = y[j] + 0.5 * h * b[j];
        fd(t + 0.5 * h, tmp, c, k[i], w[i]);
        for (int j = 0; j < 2; ++j) tmp[j] = y[j] + h * c[j];
        fd(t + h, tmp, d, k[i], w[i]);
        for (int j = 0; j < 2; ++j) y[j] += h / 6.0 * (a[j] + 2 * b[j] + 2 * c[j] + d[j]);
        t += h;
    }
    out[i] = y[0] + y[1] / k[i];
}
__device__ float ff(float t, float y, float r, float cap)
{
    return r * y * (1.f - y / cap) - 0.02f * y * expf(-t / 3.f) + 0.05f * sinf(t) * cosf(0.5f * t) + 0.01f * powf(y + 1.f, 0.3f);
}
__global__ void rk4f(const float *r, const float *cap, float *out, int *nsteps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float y = 0.1f * cap[i], t = 0.f, h = 0.1f;
    int s = 0;
    while (t < 4.f && s < 200) {
        float k1 = ff(t, y, r[i], cap[i]);
        float k2 = ff(t + h / 2, y + h / 2 * k1, r[i], cap[i]);
        float k3 = ff(t + h / 2, y + h / 2 * k2, r[i], cap[i]);
        float k4 = ff(t + h, y + h * k3, r[i], cap[i]);
        float dy = h / 6.f * (k1 + 2 * k2 + 2 * k3 + k4);
        if (fabsf(dy) > 0.05f * cap[i] && h > 0.01f) { h = h / 2.f; continue; }
        y += dy; t += h; ++s;
    }
    out[i] = y / cap[i];
    nsteps[i] = s;
}
int main()
{
    const int n = 512;
    double *k = new double[n], *w = new double[n];
    float *r = new float[n], *cap = new float[n];
    for (int i = 0; i < n; ++i) {
        k[i] = 0.5 + (i % 17) * 0.25; w[i] = 0.3 + (i % 11) * 0.2;
        r[i] = 0.2f + (i % 23) * 0.15f; cap[i] = 1.f + (i % 7) * 3.5f;
    }
    double *dk, *dw, *dout; float *dr, *dcap, *fout; int *dst;
    cudaMalloc(&dk, n * 8); cudaMalloc(&dw, n * 8); cudaMalloc(&dout, n * 8);
    cudaMalloc(&dr, n * 4); cudaMalloc(&dcap, n * 4); cudaMalloc(&fout, n * 4); cudaMalloc(&dst, n * 4);
    cudaMemcpy(dk, k, n * 8, cudaMemcpyHostToDevice); cudaMemcpy(dw, w, n * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(dr, r, n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dcap, cap, n * 4, cudaMemcpyHostToDevice);
    rk4d<<<n / 128, 128>>>(dk, dw, dout, n, 20);
    rk4f<<<n / 128, 128>>>(dr, dcap, fout, dst, n);
    double *ho = new double[n]; float *fo = new float[n]; int *st = new int[n];
    cudaMemcpy(ho, dout, n * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(fo, fout, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(st, dst, n * 4, cudaMemcpyDeviceToHost);
    double sd = 0, sf = 0; long long ss = 0;
    for (int i = 0; i < n; ++i) { sd += ho[i]; sf += fo[i]; ss += st[i]; }
    printf("rk4 double %.9e float %.6e steps %lld\n", sd, sf, ss);
    return 0;
}
