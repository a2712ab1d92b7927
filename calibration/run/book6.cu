// Instruction-level shapes of the book's chapter 7, written for this project: __powf against powf,
// __fmul_rn / __fmaf_rn against plain expressions (built twice: -O2 and -O2 -fmad=false as
// book6_nofma), float against double accumulation printed with %.20f, an atomicCAS retry loop that
// adds ("my atomic add"), and atomicExch handing a token from thread to thread. Built -lineinfo;
// every result is checked on the host ("Test PASSED").
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void powers(const float *base, float *fast, float *accurate, int n, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float b = base[i], f = 0.0f, a = 0.0f;
        for (int r = 0; r < reps; r++) {
            f += __powf(b, 1.0f + 0.25f * r);
            a += powf(b, 1.0f + 0.25f * r);
        }
        fast[i] = f;
        accurate[i] = a;
    }
}

// a * b + c three ways: as written (fused or not by -fmad), multiply rounded apart, fused intrinsic
__global__ void fusedOrNot(const float *a, const float *b, const float *c, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * b[i] + c[i];
        out[i + n] = __fadd_rn(__fmul_rn(a[i], b[i]), c[i]);
        out[i + 2 * n] = __fmaf_rn(a[i], b[i], c[i]);
    }
}

__global__ void accumulate(float *fsum, double *dsum, float step, int count) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        float f = 0.0f;
        double d = 0.0;
        for (int k = 0; k < count; k++) { f += step; d += (double)step; }
        *fsum = f;
        *dsum = d;
    }
}

__device__ int myAtomicAdd(int *addr, int inc) {
    int expected = *addr;
    int seen = atomicCAS(addr, expected, expected + inc);
    while (seen != expected) {
        expected = seen;
        seen = atomicCAS(addr, expected, expected + inc);
    }
    return seen;
}

__global__ void casAdd(int *total, const int *vals, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) myAtomicAdd(total, vals[i]);
}

// a token passed around by atomicExch: each thread swaps in its own id and records the previous
// holder; every id but one is returned exactly once
__global__ void tokenChain(int *token, int *prevOf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) prevOf[i] = atomicExch(token, i);
}

static int failures = 0;
static void expect(bool ok, const char *what) {
    printf("%-40s %s\n", what, ok ? "ok" : "MISMATCH");
    if (!ok) failures++;
}

int main() {
    const int n = 4096;
    float *hb = (float *)malloc(n * 4), *hf = (float *)malloc(n * 4), *ha = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) hb[i] = 0.5f + (i % 200) * 0.01f;
    float *db, *df, *dacc;
    CK(cudaMalloc(&db, n * 4)); CK(cudaMalloc(&df, n * 4)); CK(cudaMalloc(&dacc, n * 4));
    CK(cudaMemcpy(db, hb, n * 4, cudaMemcpyHostToDevice));
    powers<<<n / 128, 128>>>(db, df, dacc, n, 8);
    CK(cudaMemcpy(hf, df, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ha, dacc, n * 4, cudaMemcpyDeviceToHost));
    double worstFast = 0, worstAcc = 0;
    int differ = 0;
    for (int i = 0; i < n; i++) {
        double ref = 0;
        for (int r = 0; r < 8; r++) ref += pow((double)hb[i], 1.0 + 0.25 * r);
        worstFast = fmax(worstFast, fabs(hf[i] - ref) / ref);
        worstAcc = fmax(worstAcc, fabs(ha[i] - ref) / ref);
        differ += hf[i] != ha[i];
    }
    printf("__powf vs powf: %d of %d differ; worst relative error %.3e and %.3e\n", differ, n,
           worstFast, worstAcc);
    printf("sample: __powf %.10f powf %.10f\n", hf[777], ha[777]);
    expect(worstFast < 1e-5 && worstAcc < 1e-6, "powers within tolerance");

    const int m = 1024;
    float *hx = (float *)malloc(3 * m * 4), *ho = (float *)malloc(3 * m * 4);
    for (int i = 0; i < m; i++) {
        hx[i] = 1.0f + i * 1.1920929e-7f * 37;
        hx[m + i] = 1.0f - i * 5.9604645e-8f * 11;
        hx[2 * m + i] = -1.0f;
    }
    float *dx, *dout;
    CK(cudaMalloc(&dx, 3 * m * 4)); CK(cudaMalloc(&dout, 3 * m * 4));
    CK(cudaMemcpy(dx, hx, 3 * m * 4, cudaMemcpyHostToDevice));
    fusedOrNot<<<m / 256, 256>>>(dx, dx + m, dx + 2 * m, dout, m);
    CK(cudaMemcpy(ho, dout, 3 * m * 4, cudaMemcpyDeviceToHost));
    int asFma = 0, asMul = 0, bad = 0;
    for (int i = 0; i < m; i++) {
        float a = hx[i], b = hx[m + i], c = hx[2 * m + i];
        float fused = fmaf(a, b, c);
        volatile float p = a * b;
        float split = p + c;
        bad += ho[m + i] != split || ho[2 * m + i] != fused;
        asFma += ho[i] == fused && fused != split;
        asMul += ho[i] == split && fused != split;
    }
    printf("a*b+c as written: %d like fmaf, %d like mul then add\n", asFma, asMul);
    printf("element 500: %.20f %.20f %.20f\n", ho[500], ho[m + 500], ho[2 * m + 500]);
    expect(bad == 0, "__fmul_rn/__fadd_rn and __fmaf_rn");

    float *dfs, hfs;
    double *dds, hds;
    CK(cudaMalloc(&dfs, 4)); CK(cudaMalloc(&dds, 8));
    accumulate<<<1, 32>>>(dfs, dds, 0.1f, 100000);
    CK(cudaMemcpy(&hfs, dfs, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hds, dds, 8, cudaMemcpyDeviceToHost));
    float hostF = 0.0f;
    double hostD = 0.0;
    for (int k = 0; k < 100000; k++) { hostF += 0.1f; hostD += (double)0.1f; }
    printf("float sum  %.20f\ndouble sum %.20f\n", hfs, hds);
    expect(hfs == hostF && hds == hostD, "float and double sums equal the host's");

    const int nv = 2048;
    int *hvals = (int *)malloc(nv * 4), want = 0;
    for (int i = 0; i < nv; i++) { hvals[i] = i % 9 + 1; want += hvals[i]; }
    int *dvals, *dtot, tot = 0;
    CK(cudaMalloc(&dvals, nv * 4)); CK(cudaMalloc(&dtot, 4));
    CK(cudaMemcpy(dvals, hvals, nv * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dtot, 0, 4));
    casAdd<<<nv / 256, 256>>>(dtot, dvals, nv);
    CK(cudaMemcpy(&tot, dtot, 4, cudaMemcpyDeviceToHost));
    printf("atomicCAS add: %d (expected %d)\n", tot, want);
    expect(tot == want, "my atomic add");

    const int nt = 1000;
    int *dtok, *dprev;
    CK(cudaMalloc(&dtok, 4)); CK(cudaMalloc(&dprev, nt * 4));
    int start = -1;
    CK(cudaMemcpy(dtok, &start, 4, cudaMemcpyHostToDevice));
    tokenChain<<<(nt + 127) / 128, 128>>>(dtok, dprev, nt);
    int *hprev = (int *)malloc(nt * 4), last;
    CK(cudaMemcpy(hprev, dprev, nt * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&last, dtok, 4, cudaMemcpyDeviceToHost));
    int *seen = (int *)calloc(nt + 1, sizeof(int));
    bool chain = last >= 0 && last < nt;
    for (int i = 0; i < nt; i++) {
        if (hprev[i] < -1 || hprev[i] >= nt) { chain = false; break; }
        seen[hprev[i] + 1]++;
    }
    for (int v = 0; v <= nt && chain; v++) chain &= seen[v] == (v - 1 == last ? 0 : 1);
    expect(chain, "atomicExch token chain");

    CK(cudaFree(db)); CK(cudaFree(df)); CK(cudaFree(dacc)); CK(cudaFree(dx)); CK(cudaFree(dout));
    CK(cudaFree(dfs)); CK(cudaFree(dds)); CK(cudaFree(dvals)); CK(cudaFree(dtot));
    CK(cudaFree(dtok)); CK(cudaFree(dprev));
    free(hb); free(hf); free(ha); free(hx); free(ho); free(hvals); free(hprev); free(seen);
    printf(failures ? "Test FAILED\n" : "Test PASSED\n");
    return failures ? 1 : 0;
}
