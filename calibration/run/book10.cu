// Math functions and device printf formats in the style of the book's chapter 7, written for this
// project: every lane evaluates the fast intrinsics (__sinf, __cosf, __expf, __logf, __fdividef,
// __frcp_rn, __fsqrt_rn, rsqrtf), the float library (sinf, expf, logf, erff, tanhf, cbrtf) and the
// double library (sin, exp, log, pow, sqrt, cbrt) on inputs across their ranges; the host prints
// each function's results as a bit checksum and a few as %a, and checks them against its own libm
// within tolerances. A second kernel prints floats and doubles through device printf with %.20f,
// %e, %g, %a-free widths and flags. Built -O2 -lineinfo ("Test PASSED").
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NF 14
#define ND 6
#define N 256

__global__ void floatFuncs(const float *x, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float a = fabsf(v) + 0.125f;
    out[0 * N + i] = __sinf(v);
    out[1 * N + i] = __cosf(v);
    out[2 * N + i] = __expf(v * 0.25f);
    out[3 * N + i] = __logf(a);
    out[4 * N + i] = __fdividef(v, a);
    out[5 * N + i] = __frcp_rn(a);
    out[6 * N + i] = __fsqrt_rn(a);
    out[7 * N + i] = rsqrtf(a);
    out[8 * N + i] = sinf(v);
    out[9 * N + i] = expf(v * 0.25f);
    out[10 * N + i] = logf(a);
    out[11 * N + i] = erff(v * 0.1f);
    out[12 * N + i] = tanhf(v * 0.1f);
    out[13 * N + i] = cbrtf(v);
}

__global__ void doubleFuncs(const double *x, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = x[i];
    double a = fabs(v) + 0.125;
    out[0 * N + i] = sin(v);
    out[1 * N + i] = exp(v * 0.25);
    out[2 * N + i] = log(a);
    out[3 * N + i] = pow(a, 1.0 / 3.0 + v * 0.01);
    out[4 * N + i] = sqrt(a);
    out[5 * N + i] = cbrt(v);
}

__global__ void printFormats(float f, double d, int k, long long big) {
    int t = threadIdx.x;
    float ft = f * (t + 1);
    double dt = d / (t + 1);
    printf("t%d %.20f %.20f\n", t, ft, dt);
    printf("t%d [%e] [%E] [%g] [%G]\n", t, ft, dt, dt * 1e-7, ft * 1e12f);
    printf("t%d [%10.3f] [%-10.2f] [%+.1f] [%08.3f]\n", t, ft, ft, -dt, dt);
    printf("t%d [%5d] [%-5d] [%05d] [%x] [%X] [%o] [%lld] [%c] [%s] [%%]\n", t, k + t, k - t, t, k * 7919,
           k * 104729, k, big * (t + 1), 'a' + t, t & 1 ? "odd" : "even");
}

static uint32_t checksum(const void *p, size_t bytes) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < bytes; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

int main() {
    float hx[N];
    double hdx[N];
    for (int i = 0; i < N; i++) {
        hx[i] = -12.0f + 24.0f * i / (N - 1) + 0.001f * (i % 7);
        hdx[i] = -20.0 + 40.0 * i / (N - 1) + 1e-9 * (i % 11);
    }
    float *dx, *dout;
    double *ddx, *ddout;
    CK(cudaMalloc(&dx, sizeof hx)); CK(cudaMalloc(&dout, NF * N * sizeof(float)));
    CK(cudaMalloc(&ddx, sizeof hdx)); CK(cudaMalloc(&ddout, ND * N * sizeof(double)));
    CK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ddx, hdx, sizeof hdx, cudaMemcpyHostToDevice));
    floatFuncs<<<N / 64, 64>>>(dx, dout);
    doubleFuncs<<<N / 64, 64>>>(ddx, ddout);
    float *hf = (float *)malloc(NF * N * sizeof(float));
    double *hd = (double *)malloc(ND * N * sizeof(double));
    CK(cudaMemcpy(hf, dout, NF * N * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hd, ddout, ND * N * sizeof(double), cudaMemcpyDeviceToHost));

    const char *fname[NF] = {"__sinf", "__cosf", "__expf", "__logf", "__fdividef", "__frcp_rn", "__fsqrt_rn",
                             "rsqrtf", "sinf", "expf", "logf", "erff", "tanhf", "cbrtf"};
    const double ftol[NF] = {2e-6, 2e-6, 1e-5, 2e-6, 1e-6, 1e-7, 1e-7, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6};
    bool ok = true;
    for (int f = 0; f < NF; f++) {
        double worst = 0;
        for (int i = 0; i < N; i++) {
            double v = hx[i], a = fabs(v) + 0.125, ref;
            switch (f) {
            case 0: case 8: ref = sin(v); break;
            case 1: ref = cos(v); break;
            case 2: case 9: ref = exp(v * 0.25); break;
            case 3: case 10: ref = log(a); break;
            case 4: ref = v / a; break;
            case 5: ref = 1.0 / a; break;
            case 6: ref = sqrt(a); break;
            case 7: ref = 1.0 / sqrt(a); break;
            case 11: ref = erf((double)(hx[i] * 0.1f)); break;
            case 12: ref = tanh((double)(hx[i] * 0.1f)); break;
            default: ref = cbrt(v); break;
            }
            double err = fabs(hf[f * N + i] - ref) / fmax(1.0, fabs(ref));
            if (err > worst) worst = err;
        }
        bool good = worst <= ftol[f];
        ok &= good;
        printf("%-11s checksum %08x  f(x[37]) = %a  worst %s\n", fname[f], checksum(hf + f * N, N * 4),
               hf[f * N + 37], good ? "within tolerance" : "OUT OF TOLERANCE");
    }
    const char *dname[ND] = {"sin", "exp", "log", "pow", "sqrt", "cbrt"};
    for (int f = 0; f < ND; f++) {
        double worst = 0;
        for (int i = 0; i < N; i++) {
            double v = hdx[i], a = fabs(v) + 0.125, ref;
            switch (f) {
            case 0: ref = sin(v); break;
            case 1: ref = exp(v * 0.25); break;
            case 2: ref = log(a); break;
            case 3: ref = pow(a, 1.0 / 3.0 + v * 0.01); break;
            case 4: ref = sqrt(a); break;
            default: ref = cbrt(v); break;
            }
            double err = fabs(hd[f * N + i] - ref) / fmax(1.0, fabs(ref));
            if (err > worst) worst = err;
        }
        bool good = worst <= 1e-14;
        ok &= good;
        printf("%-11s checksum %08x  f(x[101]) = %a  worst %s\n", dname[f], checksum(hd + f * N, N * 8),
               hd[f * N + 101], good ? "within tolerance" : "OUT OF TOLERANCE");
    }
    fflush(stdout);
    printFormats<<<1, 4>>>(3.1415927f, 2.718281828459045, 42, 1234567890123LL);
    CK(cudaDeviceSynchronize());
    CK(cudaFree(dx)); CK(cudaFree(dout)); CK(cudaFree(ddx)); CK(cudaFree(ddout));
    free(hf); free(hd);
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
