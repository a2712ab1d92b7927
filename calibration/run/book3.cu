// Global-memory shapes of the book's chapter 4, written for this project: reads and writes at an
// element offset (misaligned by 1..33, plain and unrolled by 4), an array of structs against a
// struct of arrays (two floats), zero-copy host memory through cudaHostGetDevicePointer and through
// UVA directly, managed matrices with a warm-up kernel, a 1-D grid whose threads loop over rows,
// __ldg read-only loads against __constant__ broadcasts, a __device__ variable set by
// cudaMemcpyToSymbol. Built -O2 -lineinfo; every result is checked on the host ("Test PASSED").
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int failures = 0;
static void expect(bool ok, const char *what) {
    printf("%-44s %s\n", what, ok ? "ok" : "MISMATCH");
    if (!ok) failures++;
}

// ---- offsets ---------------------------------------------------------------------------------
__global__ void readShifted(const float *a, const float *b, float *c, int n, int shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i + shift;
    if (k < n) c[i] = a[k] + b[k];
}

__global__ void writeShifted(const float *a, const float *b, float *c, int n, int shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i + shift;
    if (k < n) c[k] = a[i] * 2.0f - b[i];
}

__global__ void readShiftedUnroll4(const float *a, const float *b, float *c, int n, int shift) {
    int i = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int k = i + shift;
    if (k + 3 * blockDim.x < n) {
        c[i] = a[k] + b[k];
        c[i + blockDim.x] = a[k + blockDim.x] + b[k + blockDim.x];
        c[i + 2 * blockDim.x] = a[k + 2 * blockDim.x] + b[k + 2 * blockDim.x];
        c[i + 3 * blockDim.x] = a[k + 3 * blockDim.x] + b[k + 3 * blockDim.x];
    }
}

// ---- AoS / SoA -------------------------------------------------------------------------------
struct Pair { float u; float v; };
struct Pairs { float *u; float *v; };

__global__ void stepAoS(const Pair *in, Pair *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Pair p = in[i];
        p.u += 1.5f;
        p.v = p.v * 0.5f + p.u;
        out[i] = p;
    }
}

__global__ void stepSoA(Pairs in, Pairs out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float u = in.u[i] + 1.5f;
        out.u[i] = u;
        out.v[i] = in.v[i] * 0.5f + u;
    }
}

// ---- zero copy -------------------------------------------------------------------------------
__global__ void scaleInPlace(int *p, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * k + i;
}

// ---- managed matrices --------------------------------------------------------------------------
__global__ void matAdd2D(const float *a, const float *b, float *c, int nx, int ny) {
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix < nx && iy < ny) c[iy * nx + ix] = a[iy * nx + ix] + b[iy * nx + ix];
}

// a 1-D grid over the columns; each thread walks down its column
__global__ void matAddColumns(const float *a, const float *b, float *c, int nx, int ny) {
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix < nx)
        for (int iy = 0; iy < ny; iy++) c[iy * nx + ix] = a[iy * nx + ix] - b[iy * nx + ix];
}

// ---- __ldg vs __constant__ -----------------------------------------------------------------------
#define TAPS 9
__constant__ float ctaps[TAPS];

__global__ void firConstant(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + TAPS <= n) {
        float s = 0.0f;
#pragma unroll
        for (int t = 0; t < TAPS; t++) s += ctaps[t] * in[i + t];
        out[i] = s;
    }
}

__global__ void firLdg(const float *__restrict__ in, const float *__restrict__ taps,
                       float *__restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + TAPS <= n) {
        float s = 0.0f;
#pragma unroll
        for (int t = 0; t < TAPS; t++) s += __ldg(&taps[t]) * __ldg(&in[i + t]);
        out[i] = s;
    }
}

// ---- __device__ variable ---------------------------------------------------------------------
__device__ float gScale;
__device__ int gCalls;

__global__ void bumpGlobal() {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        gScale = gScale * 2.0f + 1.0f;
        gCalls += 1;
    }
}

int main() {
    const int n = 1 << 14;
    const size_t bytes = n * sizeof(float);
    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) { ha[i] = (float)(i % 97) * 0.25f; hb[i] = (float)(i % 13) - 6.0f; }
    float *da, *db, *dc;
    CK(cudaMalloc(&da, bytes)); CK(cudaMalloc(&db, bytes)); CK(cudaMalloc(&dc, bytes));
    CK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));

    // offsets 0, 1, 11, 33: read misaligned, write misaligned, unrolled by 4
    const int shifts[] = {0, 1, 11, 33};
    for (int s : shifts) {
        CK(cudaMemset(dc, 0, bytes));
        readShifted<<<n / 256, 256>>>(da, db, dc, n, s);
        CK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i + s < n; i++) ok &= hc[i] == ha[i + s] + hb[i + s];
        char what[64]; snprintf(what, sizeof what, "read at offset %d", s); expect(ok, what);
    }
    for (int s : {1, 17}) {
        CK(cudaMemset(dc, 0, bytes));
        writeShifted<<<n / 128, 128>>>(da, db, dc, n, s);
        CK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int k = s; k < n; k++) ok &= hc[k] == ha[k - s] * 2.0f - hb[k - s];
        char what[64]; snprintf(what, sizeof what, "write at offset %d", s); expect(ok, what);
    }
    for (int s : {0, 3}) {
        CK(cudaMemset(dc, 0, bytes));
        readShiftedUnroll4<<<n / 256 / 4, 256>>>(da, db, dc, n, s);
        CK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int b = 0; b < n / 1024; b++)
            for (int j = 0; j < 1024; j++) {
                int i = b * 1024 + j, k = i + s;
                if (b * 1024 + (j % 256) + s + 768 < n) ok &= hc[i] == ha[k] + hb[k];
            }
        char what[64]; snprintf(what, sizeof what, "read unrolled by 4 at offset %d", s); expect(ok, what);
    }

    // AoS vs SoA
    const int np = 5000;
    Pair *hp = (Pair *)malloc(np * sizeof(Pair)), *hq = (Pair *)malloc(np * sizeof(Pair));
    for (int i = 0; i < np; i++) { hp[i].u = i * 0.5f; hp[i].v = (float)(i % 7); }
    Pair *dp, *dq;
    CK(cudaMalloc(&dp, np * sizeof(Pair))); CK(cudaMalloc(&dq, np * sizeof(Pair)));
    CK(cudaMemcpy(dp, hp, np * sizeof(Pair), cudaMemcpyHostToDevice));
    stepAoS<<<(np + 127) / 128, 128>>>(dp, dq, np);
    CK(cudaMemcpy(hq, dq, np * sizeof(Pair), cudaMemcpyDeviceToHost));
    bool aos = true;
    for (int i = 0; i < np; i++) {
        float u = hp[i].u + 1.5f;
        aos &= hq[i].u == u && hq[i].v == hp[i].v * 0.5f + u;
    }
    expect(aos, "array of structs");
    Pairs sin_, sout;
    CK(cudaMalloc(&sin_.u, np * 4)); CK(cudaMalloc(&sin_.v, np * 4));
    CK(cudaMalloc(&sout.u, np * 4)); CK(cudaMalloc(&sout.v, np * 4));
    float *tu = (float *)malloc(np * 4), *tv = (float *)malloc(np * 4);
    for (int i = 0; i < np; i++) { tu[i] = hp[i].u; tv[i] = hp[i].v; }
    CK(cudaMemcpy(sin_.u, tu, np * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(sin_.v, tv, np * 4, cudaMemcpyHostToDevice));
    stepSoA<<<(np + 127) / 128, 128>>>(sin_, sout, np);
    CK(cudaMemcpy(tu, sout.u, np * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tv, sout.v, np * 4, cudaMemcpyDeviceToHost));
    bool soa = true;
    for (int i = 0; i < np; i++) soa &= tu[i] == hq[i].u && tv[i] == hq[i].v;
    expect(soa, "struct of arrays equals array of structs");

    // zero copy: mapped pinned memory through its device pointer, then through UVA
    CK(cudaSetDeviceFlags(cudaDeviceMapHost));
    const int nz = 3000;
    int *hz;
    CK(cudaHostAlloc((void **)&hz, nz * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < nz; i++) hz[i] = i % 50;
    int *dz;
    CK(cudaHostGetDevicePointer((void **)&dz, hz, 0));
    scaleInPlace<<<(nz + 255) / 256, 256>>>(dz, nz, 3);
    CK(cudaDeviceSynchronize());
    bool z1 = true;
    for (int i = 0; i < nz; i++) z1 &= hz[i] == (i % 50) * 3 + i;
    expect(z1, "zero copy through the device pointer");
    scaleInPlace<<<(nz + 255) / 256, 256>>>(hz, nz, -1);
    CK(cudaDeviceSynchronize());
    bool z2 = true;
    for (int i = 0; i < nz; i++) z2 &= hz[i] == -((i % 50) * 3 + i) + i;
    expect(z2, "zero copy through the host pointer (UVA)");
    cudaPointerAttributes attr;
    CK(cudaPointerGetAttributes(&attr, hz));
    printf("mapped buffer: type %d, device pointer %s host pointer\n", (int)attr.type,
           attr.devicePointer == (void *)hz ? "equals the" : "differs from the");
    CK(cudaFreeHost(hz));

    // managed matrices, a warm-up launch first
    const int nx = 300, ny = 200, nm = nx * ny;
    float *ma, *mb, *mc;
    CK(cudaMallocManaged(&ma, nm * 4)); CK(cudaMallocManaged(&mb, nm * 4)); CK(cudaMallocManaged(&mc, nm * 4));
    for (int i = 0; i < nm; i++) { ma[i] = (float)(i % 31); mb[i] = (float)(i % 17) * 0.5f; }
    dim3 blk(32, 8), grd((nx + 31) / 32, (ny + 7) / 8);
    matAdd2D<<<grd, blk>>>(ma, mb, mc, 1, 1);  // warm-up
    CK(cudaDeviceSynchronize());
    matAdd2D<<<grd, blk>>>(ma, mb, mc, nx, ny);
    CK(cudaDeviceSynchronize());
    bool m1 = true;
    for (int i = 0; i < nm; i++) m1 &= mc[i] == ma[i] + mb[i];
    expect(m1, "managed 2-D matrix sum");
    matAddColumns<<<(nx + 63) / 64, 64>>>(ma, mb, mc, nx, ny);
    CK(cudaDeviceSynchronize());
    bool m2 = true;
    for (int i = 0; i < nm; i++) m2 &= mc[i] == ma[i] - mb[i];
    expect(m2, "managed matrix, 1-D grid looping over rows");

    // FIR through constant memory and through __ldg
    float taps[TAPS];
    for (int t = 0; t < TAPS; t++) taps[t] = 1.0f / (t + 2);
    CK(cudaMemcpyToSymbol(ctaps, taps, sizeof taps));
    float *dtaps;
    CK(cudaMalloc(&dtaps, sizeof taps));
    CK(cudaMemcpy(dtaps, taps, sizeof taps, cudaMemcpyHostToDevice));
    firConstant<<<n / 256, 256>>>(da, dc, n);
    CK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
    float *hd = (float *)malloc(bytes);
    firLdg<<<n / 256, 256>>>(da, dtaps, db, n);
    CK(cudaMemcpy(hd, db, bytes, cudaMemcpyDeviceToHost));
    double worst = 0;
    bool same = true;
    for (int i = 0; i + TAPS <= n; i++) {
        double s = 0;
        for (int t = 0; t < TAPS; t++) s += (double)taps[t] * ha[i + t];
        worst = fmax(worst, fabs(s - hc[i]));
        same &= hc[i] == hd[i];
    }
    printf("FIR worst error %.3e\n", worst);
    expect(worst < 1e-3 && same, "FIR: __constant__ and __ldg agree");

    // __device__ variables through the symbol API
    float s0 = 3.25f;
    int c0 = 0;
    CK(cudaMemcpyToSymbol(gScale, &s0, sizeof s0));
    CK(cudaMemcpyToSymbol(gCalls, &c0, sizeof c0));
    for (int r = 0; r < 3; r++) bumpGlobal<<<2, 32>>>();
    float s1;
    int c1;
    CK(cudaMemcpyFromSymbol(&s1, gScale, sizeof s1));
    CK(cudaMemcpyFromSymbol(&c1, gCalls, sizeof c1));
    printf("gScale %f after %d calls\n", s1, c1);
    expect(s1 == ((3.25f * 2 + 1) * 2 + 1) * 2 + 1 && c1 == 3, "__device__ variable via symbols");

    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc)); CK(cudaFree(dp)); CK(cudaFree(dq));
    CK(cudaFree(ma)); CK(cudaFree(mb)); CK(cudaFree(mc)); CK(cudaFree(dtaps));
    CK(cudaFree(sin_.u)); CK(cudaFree(sin_.v)); CK(cudaFree(sout.u)); CK(cudaFree(sout.v));
    free(ha); free(hb); free(hc); free(hd); free(hp); free(hq); free(tu); free(tv);
    CK(cudaDeviceReset());
    printf(failures ? "Test FAILED\n" : "Test PASSED\n");
    return failures ? 1 : 0;
}
