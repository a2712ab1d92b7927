// A particle filter tracking a point on a circle: particles moved by a double-precision motion
// model (sin/cos), weighted by a likelihood (exp), the weights normalised, a CDF built by a block
// scan, and particles resampled by a binary search over the CDF.
#include <cstdio>
#include <cmath>
#define NP 512
__device__ double rnd(unsigned &s) { s = s * 1664525u + 1013904223u; return (s >> 8) * (1.0 / 16777216.0); }
__global__ void move_weigh(double *x, double *y, double *w, double ox, double oy, int step, unsigned seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = seed ^ (i * 2654435761u) ^ (step * 40503u);
    double a = 0.1 + 0.2 * rnd(s);
    double nx = x[i] * cos(a) - y[i] * sin(a) + 0.05 * (rnd(s) - 0.5);
    double ny = x[i] * sin(a) + y[i] * cos(a) + 0.05 * (rnd(s) - 0.5);
    x[i] = nx; y[i] = ny;
    double d2 = (nx - ox) * (nx - ox) + (ny - oy) * (ny - oy);
    w[i] = exp(-d2 / 0.02);
}
__global__ void cdf(const double *w, double *c)
{
    __shared__ double s[NP];
    int t = threadIdx.x;
    s[t] = w[t];
    __syncthreads();
    for (int d = 1; d < NP; d <<= 1) {
        double v = t >= d ? s[t - d] : 0.0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    double tot = s[NP - 1];
    c[t] = tot > 0.0 ? s[t] / tot : (double)(t + 1) / NP;
}
__global__ void resample(const double *c, const double *x, const double *y, double *x2, double *y2, double u0)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double u = (i + u0) / NP;
    int lo = 0, hi = NP - 1;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (c[mid] < u) lo = mid + 1; else hi = mid;
    }
    x2[i] = x[lo]; y2[i] = y[lo];
}
int main()
{
    double hx[NP], hy[NP];
    for (int i = 0; i < NP; ++i) { double a = 6.283185307179586 * i / NP; hx[i] = cos(a); hy[i] = sin(a); }
    double *x, *y, *x2, *y2, *w, *c;
    cudaMalloc(&x, NP * 8); cudaMalloc(&y, NP * 8); cudaMalloc(&x2, NP * 8); cudaMalloc(&y2, NP * 8);
    cudaMalloc(&w, NP * 8); cudaMalloc(&c, NP * 8);
    cudaMemcpy(x, hx, NP * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, NP * 8, cudaMemcpyHostToDevice);
    for (int step = 0; step < 5; ++step) {
        double ang = 0.2 * (step + 1);
        move_weigh<<<NP / 128, 128>>>(x, y, w, cos(ang), sin(ang), step, 1234u);
        cdf<<<1, NP>>>(w, c);
        resample<<<NP / 128, 128>>>(c, x, y, x2, y2, 0.37);
        double *t = x; x = x2; x2 = t; t = y; y = y2; y2 = t;
    }
    cudaMemcpy(hx, x, NP * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(hy, y, NP * 8, cudaMemcpyDeviceToHost);
    double mx = 0, my = 0;
    for (int i = 0; i < NP; ++i) { mx += hx[i]; my += hy[i]; }
    printf("pfilter estimate %.6f %.6f\n", mx / NP, my / NP);
    return 0;
}
