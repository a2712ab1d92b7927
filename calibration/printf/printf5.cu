// Device printf's own global traffic, fifth set: the four calls of calibration/run/book10.cu's
// printFormats (4 lanes, %.20f, %e/%E/%g/%G, widths and flags, %c, %x, %lld, a %s of 3 or 4
// characters, %%) together and one by one, in blocks of 4 and of 32 threads; the same format
// printed by 1, 2, 4 and 32 lanes; one, two and four calls in a kernel; %s of 0 to 9 characters
// from 1 and 4 lanes (one string, or lanes' strings of different lengths); %% with and without
// arguments; 3 to 10 arguments of int, long long, double and char *, and mixed orders (a double
// after an int); copies of earlier rows (lanes4, lanes32, twoCalls, reportShape) for the device
// at hand. One launch per variant, in the order of `main`; launches are numbered in printf5.md.
//   nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o printf5 printf5.cu
//   ./printf5 [b10only|lanes4only]    (one launch alone in its process)
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

// book10.cu's printFormats as it is, and its four calls one by one; `lanes` guards the calls
#define CALL1 printf("t%d %.20f %.20f\n", t, ft, dt)
#define CALL2 printf("t%d [%e] [%E] [%g] [%G]\n", t, ft, dt, dt * 1e-7, ft * 1e12f)
#define CALL3 printf("t%d [%10.3f] [%-10.2f] [%+.1f] [%08.3f]\n", t, ft, ft, -dt, dt)
#define CALL4 printf("t%d [%5d] [%-5d] [%05d] [%x] [%X] [%o] [%lld] [%c] [%s] [%%]\n", t, k + t, k - t, t, \
                     k * 7919, k * 104729, k, big * (t + 1), 'a' + t, t & 1 ? "odd" : "even")
#define PROLOGUE int t = threadIdx.x; float ft = f * (t + 1); double dt = d / (t + 1); (void)ft; (void)dt; \
    (void)k; (void)big; if (t >= lanes) return
__global__ void b10(float f, double d, int k, long long big, int lanes) { PROLOGUE; CALL1; CALL2; CALL3; CALL4; }
__global__ void b10call1(float f, double d, int k, long long big, int lanes) { PROLOGUE; CALL1; }
__global__ void b10call2(float f, double d, int k, long long big, int lanes) { PROLOGUE; CALL2; }
__global__ void b10call3(float f, double d, int k, long long big, int lanes) { PROLOGUE; CALL3; }
__global__ void b10call4(float f, double d, int k, long long big, int lanes) { PROLOGUE; CALL4; }
__global__ void b10calls12(float f, double d, int k, long long big, int lanes) { PROLOGUE; CALL1; CALL2; }

// one format, several calls in a kernel, `lanes` lanes
__global__ void once(int lanes) { if (threadIdx.x < lanes) printf("abcdefg\n"); }
__global__ void twice(int lanes) { if (threadIdx.x < lanes) { printf("abcdefg\n"); printf("abcdefg\n"); } }
__global__ void four(int lanes) {
    if (threadIdx.x < lanes) { printf("abcdefg\n"); printf("abcdefg\n"); printf("abcdefg\n"); printf("abcdefg\n"); }
}
__global__ void twoCallsCopy() { if (threadIdx.x == 0) { printf("abcdefg\n"); printf("%d\n", 5); } }
__global__ void reportShapeCopy(const float *v, int n) {
    if (threadIdx.x < n) printf("v[%d] = %6.2f (%s)\n", threadIdx.x, v[threadIdx.x], v[threadIdx.x] > 1.0f ? "big" : "small");
}
// int arguments and a double pair, `lanes` lanes
__global__ void threeInts(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d\n", t, t + 1, t + 2); }
__global__ void intTwoDbls(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %f %f\n", t, t + 0.5, t * 0.25); }

// %s: one string for all lanes, lanes' own strings (from a table of pointers)
__global__ void str(const char *s, int lanes) { if (threadIdx.x < lanes) printf("%s\n", s); }
__global__ void strEach(const char *const *s, int lanes) { if (threadIdx.x < lanes) printf("%s\n", s[threadIdx.x]); }
__global__ void oddEven(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%s]\n", t & 1 ? "odd" : "even"); }

// %%
__global__ void pct0(int lanes) { if (threadIdx.x < lanes) printf("100%%\n"); }
__global__ void pct1(int lanes) { if (threadIdx.x < lanes) printf("%d %%\n", (int)threadIdx.x); }
__global__ void pct2(int lanes) { if (threadIdx.x < lanes) printf("%d%%%d\n", (int)threadIdx.x, 7); }
__global__ void pctStr(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%s] [%%]\n", t & 1 ? "odd" : "even"); }
__global__ void noPct(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%s] [x]\n", t & 1 ? "odd" : "even"); }

// 3 to 10 arguments of one type, 4 lanes (lane-dependent values)
#define I t
__global__ void ints3(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d\n", I, I, I); }
__global__ void ints4(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d\n", I, I, I, I); }
__global__ void ints5(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d %d\n", I, I, I, I, I); }
__global__ void ints6(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d %d %d\n", I, I, I, I, I, I); }
__global__ void ints7(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d %d %d %d\n", I, I, I, I, I, I, I); }
__global__ void ints8(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d %d %d %d %d\n", I, I, I, I, I, I, I, I); }
__global__ void ints9(int lanes) {
    int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d %d %d %d %d %d\n", I, I, I, I, I, I, I, I, I);
}
__global__ void ints10(int lanes) {
    int t = threadIdx.x; if (t < lanes) printf("%d %d %d %d %d %d %d %d %d %d\n", I, I, I, I, I, I, I, I, I, I);
}
#define D (t + 0.5)
__global__ void dbls3(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%f %f %f\n", D, D, D); }
__global__ void dbls4(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%f %f %f %f\n", D, D, D, D); }
__global__ void dbls5(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%f %f %f %f %f\n", D, D, D, D, D); }
__global__ void dbls6(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%f %f %f %f %f %f\n", D, D, D, D, D, D); }
__global__ void dbls7(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%f %f %f %f %f %f %f\n", D, D, D, D, D, D, D); }
__global__ void dbls8(int lanes) {
    int t = threadIdx.x; if (t < lanes) printf("%f %f %f %f %f %f %f %f\n", D, D, D, D, D, D, D, D);
}
__global__ void dbls10(int lanes) {
    int t = threadIdx.x; if (t < lanes) printf("%f %f %f %f %f %f %f %f %f %f\n", D, D, D, D, D, D, D, D, D, D);
}
#define L (1234567890123LL * (t + 1))
__global__ void longs3(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%lld %lld %lld\n", L, L, L); }
__global__ void longs10(int lanes) {
    int t = threadIdx.x;
    if (t < lanes) printf("%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld\n", L, L, L, L, L, L, L, L, L, L);
}
#define S (t & 1 ? "odd" : "even")
__global__ void strs3(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%s %s %s\n", S, S, S); }
__global__ void strs6(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%s %s %s %s %s %s\n", S, S, S, S, S, S); }
__global__ void strsSame3(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%s %s %s\n", "abc", "abc", "abc"); }
// mixed orders: a double after an int and before, int/double alternating, every type
__global__ void intDbl(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %f\n", t, D); }
__global__ void dblInt(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%f %d\n", D, t); }
__global__ void alt4(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %f %d %f\n", t, D, t, D); }
__global__ void alt10(int lanes) {
    int t = threadIdx.x; if (t < lanes) printf("%d %f %d %f %d %f %d %f %d %f\n", t, D, t, D, t, D, t, D, t, D);
}
__global__ void every6(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %lld %f %s %c %x\n", t, L, D, S, 'a' + t, t); }
__global__ void strMid(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%d %s %f\n", t, S, D); }
__global__ void charInt(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%c %d %c %d\n", 'a' + t, t, 'b' + t, t); }

// widths and flags as book10's, 4 lanes
__global__ void widths(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%5d] [%-5d] [%05d]\n", t, t, t); }
__global__ void hexOct(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%x] [%X] [%o]\n", t * 7919, t, t); }
__global__ void expG(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%e] [%E] [%g] [%G]\n", D, D, D, D); }
__global__ void fixW(int lanes) { int t = threadIdx.x; if (t < lanes) printf("[%10.3f] [%-10.2f] [%+.1f] [%08.3f]\n", D, D, D, D); }
__global__ void prec20(int lanes) { int t = threadIdx.x; if (t < lanes) printf("%.20f %.20f %.20f\n", D, D, D); }
__global__ void tPrefix(int lanes) { int t = threadIdx.x; if (t < lanes) printf("t%d %f %f\n", t, D, D); }

int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : "";
    float F = 3.1415927f;
    double DD = 2.718281828459045;
    long long BIG = 1234567890123LL;
    if (!strcmp(only, "b10only")) {
        b10<<<1, 4>>>(F, DD, 42, BIG, 4);
        CK(cudaDeviceSynchronize());
        return 0;
    }
    if (!strcmp(only, "lanes4only")) {
        once<<<1, 32>>>(4);
        CK(cudaDeviceSynchronize());
        return 0;
    }
    // strings of 0..9 characters (s + 10 n holds n characters), and tables of lanes' strings
    char host[128];
    for (int n = 0; n < 10; n++) {
        for (int i = 0; i < n; i++) host[10 * n + i] = 'a' + i;
        host[10 * n + n] = 0;
    }
    char *s;
    CK(cudaMalloc(&s, 128));
    CK(cudaMemcpy(s, host, 100, cudaMemcpyHostToDevice));
    const int pats[4][4] = {{3, 4, 3, 4}, {4, 3, 4, 3}, {0, 9, 0, 9}, {3, 3, 3, 3}};
    const char **tab;
    CK(cudaMalloc(&tab, sizeof(pats) / sizeof(int) * sizeof(char *)));
    for (int p = 0; p < 4; p++) {
        const char *ptrs[4];
        for (int l = 0; l < 4; l++) ptrs[l] = s + 10 * pats[p][l];
        CK(cudaMemcpy(tab + 4 * p, ptrs, sizeof(ptrs), cudaMemcpyHostToDevice));
    }
    float hv[4] = {0.5f, 1.5f, 2.25f, 0.75f}, *dv;
    CK(cudaMalloc(&dv, sizeof(hv)));
    CK(cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
    // book10
    b10<<<1, 4>>>(F, DD, 42, BIG, 4);
    b10call1<<<1, 4>>>(F, DD, 42, BIG, 4);
    b10call2<<<1, 4>>>(F, DD, 42, BIG, 4);
    b10call3<<<1, 4>>>(F, DD, 42, BIG, 4);
    b10call4<<<1, 4>>>(F, DD, 42, BIG, 4);
    b10<<<1, 32>>>(F, DD, 42, BIG, 4);
    b10call1<<<1, 32>>>(F, DD, 42, BIG, 4);
    b10call4<<<1, 32>>>(F, DD, 42, BIG, 4);
    b10<<<1, 4>>>(F, DD, 42, BIG, 1);
    b10call1<<<1, 4>>>(F, DD, 42, BIG, 1);
    b10call4<<<1, 4>>>(F, DD, 42, BIG, 1);
    b10calls12<<<1, 4>>>(F, DD, 42, BIG, 4);
    b10call1<<<1, 32>>>(F, DD, 42, BIG, 32);
    // calls per kernel, lanes
    once<<<1, 32>>>(4);
    once<<<1, 4>>>(4);
    twice<<<1, 32>>>(4);
    four<<<1, 32>>>(4);
    twice<<<1, 32>>>(1);
    four<<<1, 32>>>(1);
    once<<<1, 32>>>(32);
    twoCallsCopy<<<1, 32>>>();
    reportShapeCopy<<<1, 4>>>(dv + 1, 3);
    for (int lanes : {1, 2, 4, 32}) threeInts<<<1, 32>>>(lanes);
    for (int lanes : {1, 2, 4, 32}) intTwoDbls<<<1, 32>>>(lanes);
    // %s
    for (int n = 0; n < 10; n++) str<<<1, 32>>>(s + 10 * n, 4);
    for (int n : {0, 3, 4, 9}) str<<<1, 32>>>(s + 10 * n, 1);
    for (int p = 0; p < 4; p++) strEach<<<1, 32>>>(tab + 4 * p, 4);
    oddEven<<<1, 32>>>(4);
    oddEven<<<1, 32>>>(1);
    // %%
    pct0<<<1, 32>>>(1);
    pct0<<<1, 32>>>(4);
    pct1<<<1, 32>>>(1);
    pct1<<<1, 32>>>(4);
    pct2<<<1, 32>>>(4);
    pctStr<<<1, 32>>>(4);
    noPct<<<1, 32>>>(4);
    // argument counts and types
    ints3<<<1, 32>>>(4);
    ints4<<<1, 32>>>(4);
    ints5<<<1, 32>>>(4);
    ints6<<<1, 32>>>(4);
    ints7<<<1, 32>>>(4);
    ints8<<<1, 32>>>(4);
    ints9<<<1, 32>>>(4);
    ints10<<<1, 32>>>(4);
    ints10<<<1, 32>>>(1);
    dbls3<<<1, 32>>>(4);
    dbls4<<<1, 32>>>(4);
    dbls5<<<1, 32>>>(4);
    dbls6<<<1, 32>>>(4);
    dbls7<<<1, 32>>>(4);
    dbls8<<<1, 32>>>(4);
    dbls10<<<1, 32>>>(4);
    dbls10<<<1, 32>>>(1);
    longs3<<<1, 32>>>(4);
    longs10<<<1, 32>>>(4);
    strs3<<<1, 32>>>(4);
    strs6<<<1, 32>>>(4);
    strsSame3<<<1, 32>>>(4);
    intDbl<<<1, 32>>>(4);
    dblInt<<<1, 32>>>(4);
    alt4<<<1, 32>>>(4);
    alt10<<<1, 32>>>(4);
    every6<<<1, 32>>>(4);
    every6<<<1, 32>>>(1);
    strMid<<<1, 32>>>(4);
    charInt<<<1, 32>>>(4);
    // widths and flags
    widths<<<1, 32>>>(4);
    hexOct<<<1, 32>>>(4);
    expG<<<1, 32>>>(4);
    fixW<<<1, 32>>>(4);
    prec20<<<1, 32>>>(4);
    tPrefix<<<1, 32>>>(4);
    tPrefix<<<1, 32>>>(1);
    CK(cudaDeviceSynchronize());
    printf("printf5: Test PASSED\n");
    return 0;
}
