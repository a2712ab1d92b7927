// A stiff ODE system integrated by a few threads (the myocyte shape): 4 cells of 24 state variables
// (gates with exp rates, concentrations with Hill terms by pow, a Nernst potential by log, a fast
// buffer), each integrated by one thread with an adaptive Euler step (a full step against two half
// steps, the step halved until the error is small, then grown by pow), the right-hand side split
// into non-inlined functions. 2 blocks of 32 threads, 2 working lanes each; the host calls the
// kernel once per interval and checks against its own integration of the same code.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#define NEQ 24
#define CELLS 4

struct Par { double g, k, hill, vrest; };

__host__ __device__ __noinline__ void gates(const double *y, double v, double *dy, const Par *p)
{
    for (int i = 0; i < 8; ++i) {
        double a = 0.1 * exp(0.04 * (v + 10.0 * i)), b = 2.0 / (1.0 + exp(-(v + 30.0 - 5.0 * i) / 8.0));
        dy[i] = a * (1.0 - y[i]) - b * y[i];
    }
    dy[0] *= p->g;
}

__host__ __device__ __noinline__ void calcium(const double *y, double v, double *dy, const Par *p)
{
    for (int i = 8; i < 16; ++i) {
        double c = fmax(y[i], 1e-9), up = p->k * pow(c, p->hill) / (pow(0.5, p->hill) + pow(c, p->hill));
        double leak = 0.05 * (y[i == 15 ? 8 : i + 1] - c), rel = 0.3 * y[i - 8] * y[i - 8] * y[16];
        dy[i] = rel - up + leak;
    }
}

__host__ __device__ __noinline__ double voltage(const double *y, double *dy, const Par *p)
{
    double v = y[23];
    double ek = 25.0 * log(4.0 / (0.1 + y[17])), ena = 25.0 * log(140.0 / (10.0 + y[18]));
    double ik = 0.5 * y[1] * y[1] * y[1] * y[1] * (v - ek), ina = 2.0 * y[2] * y[2] * y[2] * y[3] * (v - ena);
    dy[17] = 1e-3 * ik - 0.01 * y[17];
    dy[18] = -1e-3 * ina - 0.01 * (y[18] - 5.0);
    dy[16] = 0.2 * (1.0 - y[16]) - 0.5 * y[16] * y[9];
    for (int i = 19; i < 23; ++i) dy[i] = -150.0 * (y[i] - y[i - 11] * y[i - 11]);   // the fast (stiff) buffers
    dy[23] = -(ik + ina + 0.1 * (v - p->vrest)) / 1.5;
    return v;
}

__host__ __device__ void rhs(const double *y, double *dy, const Par *p)
{
    double v = voltage(y, dy, p);
    gates(y, v, dy, p);
    calcium(y, v, dy, p);
}

// integrates from t to t1, updating y and the step h; returns the accepted steps
__host__ __device__ int integrate(double *y, double t, double t1, double *h, const Par *p, int *rejected)
{
    double k1[NEQ], half[NEQ], full[NEQ], k2[NEQ];
    int steps = 0;
    while (t < t1) {
        double dt = fmin(*h, t1 - t);
        rhs(y, k1, p);
        for (int i = 0; i < NEQ; ++i) { full[i] = y[i] + dt * k1[i]; half[i] = y[i] + 0.5 * dt * k1[i]; }
        rhs(half, k2, p);
        double err = 0.0;
        for (int i = 0; i < NEQ; ++i) {
            double two = half[i] + 0.5 * dt * k2[i];
            err = fmax(err, fabs(two - full[i]) / (1e-3 + fabs(two)));
            full[i] = two;
        }
        err /= 1e-4;
        if (err > 1.0) { *h = dt * fmax(0.2, 0.9 / sqrt(err)); ++*rejected; continue; }
        for (int i = 0; i < NEQ; ++i) y[i] = full[i];
        t += dt;
        ++steps;
        *h = dt * fmin(2.0, 0.9 * pow(err + 1e-12, -0.5));
    }
    return steps;
}

__global__ void cells(double *state, double *hs, const Par *par, double t, double t1, int *steps, int *rej)
{
    int c = blockIdx.x * 2 + threadIdx.x;
    if (threadIdx.x >= 2 || c >= CELLS) return;
    double y[NEQ];
    for (int i = 0; i < NEQ; ++i) y[i] = state[c * NEQ + i];
    double h = hs[c];
    int r = 0;
    steps[c] += integrate(y, t, t1, &h, &par[c], &r);
    rej[c] += r;
    for (int i = 0; i < NEQ; ++i) state[c * NEQ + i] = y[i];
    hs[c] = h;
}

int main()
{
    Par par[CELLS] = {{1.0, 0.8, 2.0, -80.0}, {1.3, 1.0, 2.5, -75.0}, {0.7, 0.6, 3.0, -85.0}, {1.1, 1.2, 1.5, -70.0}};
    double y[CELLS * NEQ], hy[CELLS * NEQ], hs[CELLS], hh[CELLS];
    for (int c = 0; c < CELLS; ++c) {
        for (int i = 0; i < NEQ; ++i) y[c * NEQ + i] = 0.1 + 0.02 * ((i * 7 + c * 3) % 11);
        y[c * NEQ + 23] = -60.0 + 5.0 * c;
        hs[c] = 1e-3;
    }
    for (int k = 0; k < CELLS * NEQ; ++k) hy[k] = y[k];
    for (int c = 0; c < CELLS; ++c) hh[c] = hs[c];
    double *dy, *dh; Par *dp; int *dst, *drj;
    cudaMalloc(&dy, sizeof y); cudaMalloc(&dh, sizeof hs); cudaMalloc(&dp, sizeof par);
    cudaMalloc(&dst, CELLS * 4); cudaMalloc(&drj, CELLS * 4);
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    cudaMemcpy(dh, hs, sizeof hs, cudaMemcpyHostToDevice);
    cudaMemcpy(dp, par, sizeof par, cudaMemcpyHostToDevice);
    cudaMemset(dst, 0, CELLS * 4); cudaMemset(drj, 0, CELLS * 4);
    const int NI = 6;
    const double T = 0.25;
    int st[CELLS], rj[CELLS], hst[CELLS] = {0}, hrj[CELLS] = {0};
    printf("myocyte %d cells, %d equations, %d intervals\n", CELLS, NEQ, NI);
    for (int k = 0; k < NI; ++k) {
        cells<<<2, 32>>>(dy, dh, dp, k * T, (k + 1) * T, dst, drj);
        for (int c = 0; c < CELLS; ++c) hst[c] += integrate(hy + c * NEQ, k * T, (k + 1) * T, &hh[c], &par[c], &hrj[c]);
        cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
        printf("  t %.2f: v %.6f %.6f  ca %.6e  buf %.6e\n", (k + 1) * T, y[23], y[NEQ + 23], y[8], y[19]);
    }
    cudaMemcpy(st, dst, sizeof st, cudaMemcpyDeviceToHost);
    cudaMemcpy(rj, drj, sizeof rj, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int k = 0; k < CELLS * NEQ; ++k) worst = fmax(worst, fabs(y[k] - hy[k]) / (1e-6 + fabs(hy[k])));
    int bad = worst > 1e-5 || y[0] != y[0];
    for (int c = 0; c < CELLS; ++c) printf("  cell %d: %d steps, %d rejected\n", c, st[c], rj[c]);
    printf("  %s\n", bad ? "FAIL" : "PASS");
    return bad;
}
