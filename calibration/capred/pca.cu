// cp.async copies with a source predicate: `cp.async.ca` of 4, 8 and 16 bytes whose src-size is a
// `selp` of the copy size and 0 (CuTe's SM80_CP_ASYNC_CACHEALWAYS_ZFILL, CUTLASS's cp_async_zfill)
// or whose `ignore-src` predicate is given, and `cp.async.cg` 16-byte copies with the `ignore-src`
// predicate. ptxas compiles every one of them to `LDGSTS.E{,.64,.128,.BYPASS.128} [d], [s], P`.
// One layout per launch (1 or 4 warps, every warp the same table): lane t (of its warp) copies W
// bytes from in + src[t] to shared region c (4 KiB each) + dst[t] when ex[t] is set (the others
// branch around the copies); copy c reads its source where bit c of rd[t] is set, else it
// zero-fills. Copies per launch (code order):
//   .ca kernels (K = 0): c0..c5 src-size selp(W, 0), c6 ignore-src, c7 plain (every lane reads);
//   .cg kernel  (K = 1): c0..c6 ignore-src, c7 plain.
// NEG = 1 passes the masks complemented and compares each bit with 1 (the same lanes reading),
// so ptxas writes the negated register (!P0 ... !P6). Which SASS predicate each LDGSTS reads is in sass.txt.
// Table line (layouts.txt): name W K warps, then 32 dst, 32 src (bytes), 32 read masks, 32 ex.
// Build: nvcc -O3 -arch=sm_90 -o pca pca.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// copy c reads where q_c holds; q_c = (bit c of m) != 0 for NEG 0, (bit c of ~m) == 0 for NEG 1
#define PREDS(CMP)                                                                                 \
    " and.b32 b, %2, 1; setp." CMP ".b32 q0, b, 0;\n"                                              \
    " and.b32 b, %2, 2; setp." CMP ".b32 q1, b, 0;\n"                                              \
    " and.b32 b, %2, 4; setp." CMP ".b32 q2, b, 0;\n"                                              \
    " and.b32 b, %2, 8; setp." CMP ".b32 q3, b, 0;\n"                                              \
    " and.b32 b, %2, 16; setp." CMP ".b32 q4, b, 0;\n"                                             \
    " and.b32 b, %2, 32; setp." CMP ".b32 q5, b, 0;\n"                                             \
    " and.b32 b, %2, 64; setp." CMP ".b32 q6, b, 0;\n"

#define CA_COPIES(CMP)                                                                             \
    asm volatile("{ .reg .pred q<8>; .reg .b32 z<8>; .reg .b32 b;\n" PREDS(CMP)                    \
                 " selp.b32 z0, %3, 0, q0; selp.b32 z1, %3, 0, q1; selp.b32 z2, %3, 0, q2;\n"     \
                 " selp.b32 z3, %3, 0, q3; selp.b32 z4, %3, 0, q4; selp.b32 z5, %3, 0, q5;\n"     \
                 " cp.async.ca.shared.global [%0], [%1], %3, z0;\n"                               \
                 " cp.async.ca.shared.global [%0+4096], [%1], %3, z1;\n"                          \
                 " cp.async.ca.shared.global [%0+8192], [%1], %3, z2;\n"                          \
                 " cp.async.ca.shared.global [%0+12288], [%1], %3, z3;\n"                         \
                 " cp.async.ca.shared.global [%0+16384], [%1], %3, z4;\n"                         \
                 " cp.async.ca.shared.global [%0+20480], [%1], %3, z5;\n"                         \
                 " cp.async.ca.shared.global [%0+24576], [%1], %3, !q6;\n"                        \
                 " cp.async.ca.shared.global [%0+28672], [%1], %3;\n"                             \
                 "}" ::"r"(d), "l"(g), "r"(m), "n"(W))

#define CG_COPIES(CMP)                                                                             \
    asm volatile("{ .reg .pred q<8>; .reg .b32 b;\n" PREDS(CMP)                                    \
                 " cp.async.cg.shared.global [%0], [%1], 16, !q0;\n"                              \
                 " cp.async.cg.shared.global [%0+4096], [%1], 16, !q1;\n"                         \
                 " cp.async.cg.shared.global [%0+8192], [%1], 16, !q2;\n"                         \
                 " cp.async.cg.shared.global [%0+12288], [%1], 16, !q3;\n"                        \
                 " cp.async.cg.shared.global [%0+16384], [%1], 16, !q4;\n"                        \
                 " cp.async.cg.shared.global [%0+20480], [%1], 16, !q5;\n"                        \
                 " cp.async.cg.shared.global [%0+24576], [%1], 16, !q6;\n"                        \
                 " cp.async.cg.shared.global [%0+28672], [%1], 16;\n"                             \
                 "}" ::"r"(d), "l"(g), "r"(m))

template <int W, int K, int NEG>
__global__ void pca(int *out, const char *in, const int *tab) {
    __shared__ __align__(1024) char s[8 * 4096];
    int t = threadIdx.x & 31;
    unsigned d = (unsigned)__cvta_generic_to_shared(s) + (unsigned)tab[t];
    const char *g = in + (long)tab[32 + t];
    unsigned m = (unsigned)tab[64 + t];
    if (NEG) m = ~m;
    if (tab[96 + t]) {
        if (K == 0 && NEG == 0) CA_COPIES("ne");
        if (K == 0 && NEG == 1) CA_COPIES("eq");
        if (K == 1 && NEG == 0) CG_COPIES("ne");
        if (K == 1 && NEG == 1) CG_COPIES("eq");
    }
    asm volatile("cp.async.wait_all;");
    __syncwarp();
    out[threadIdx.x] = t;
}

template <int W, int K>
static void launch(int neg, int warps, int *out, const char *in, const int *tab) {
    if (neg) pca<W, K, 1><<<1, 32 * warps>>>(out, in, tab);
    else pca<W, K, 0><<<1, 32 * warps>>>(out, in, tab);
}

int main(int argc, char **argv) {
    FILE *f = fopen(argc > 1 ? argv[1] : "layouts.txt", "r");
    if (!f) { fprintf(stderr, "no layouts file\n"); return 2; }
    std::vector<std::vector<int>> rows;
    std::vector<std::string> names;
    char name[128];
    while (fscanf(f, "%127s", name) == 1) {
        std::vector<int> v(3 + 128);
        for (int i = 0; i < 3 + 128; i++)
            if (fscanf(f, "%d", &v[i]) != 1) { fprintf(stderr, "bad row\n"); return 2; }
        rows.push_back(v);
        names.push_back(name);
    }
    char *in;
    int *out, *tab;
    cudaMalloc(&in, 1 << 20);
    cudaMalloc(&out, 128 * 4);
    cudaMalloc(&tab, 128 * 4);
    cudaMemset(in, 1, 1 << 20);
    int launches = 0;
    for (size_t r = 0; r < rows.size(); r++) {
        int w = rows[r][0], k = rows[r][1], warps = rows[r][2];
        cudaMemcpy(tab, rows[r].data() + 3, 128 * 4, cudaMemcpyHostToDevice);
        for (int neg = 0; neg < 2; neg++) {
            printf("%d %s %d %d %d %d\n", launches++, names[r].c_str(), w, k, warps, neg);
            if (k == 0 && w == 4) launch<4, 0>(neg, warps, out, in + 4096, tab);
            else if (k == 0 && w == 8) launch<8, 0>(neg, warps, out, in + 4096, tab);
            else if (k == 0 && w == 16) launch<16, 0>(neg, warps, out, in + 4096, tab);
            else if (k == 1 && w == 16) launch<16, 1>(neg, warps, out, in + 4096, tab);
            else { fprintf(stderr, "bad kind %d %d\n", w, k); return 2; }
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "%s (%d launches)\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e), launches);
    return e != cudaSuccess;
}
