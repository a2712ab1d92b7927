// cp.async.cg 16-byte copies with a src-size that is 16 or 0 (Triton's masked copies: PTX
// `selp.b32 r, 16, 0, p; cp.async.cg.shared.global [d], [s], 16, r`), which ptxas compiles to
// `LDGSTS.E.BYPASS.128 [d], [s], P` (a per-lane "read the source" predicate operand).
// One warp per launch, NCOPY copies per launch, all with the launch's layout: lane t copies 16
// bytes from in + src[t] * 16 to shared region c (4 KiB each) + dst[t] * 16, reading its source
// when bit c of rd[t] is set (else zero-filling). Each copy gets its own predicate; which SASS
// predicate register each LDGSTS reads is in sass.txt. Tables: `rows.txt` (written by the host:
// one line per launch: row, layout name, then 32 dst, 32 src, 32 read masks).
// Build: nvcc -O3 -arch=sm_90 -o pz pz.cu
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>

#define NCOPY 8

template <int NEG>
__global__ void pz(int *out, const char *in, const int *tab) {
    __shared__ __align__(1024) char s[NCOPY * 4096];
    int t = threadIdx.x;
    unsigned d = (unsigned)__cvta_generic_to_shared(s) + (unsigned)tab[t] * 16;
    const char *g = in + (long)tab[32 + t] * 16;
    unsigned m = (unsigned)tab[64 + t];
    if (NEG) m = ~m;
    if (NEG) asm volatile(
        "{ .reg .pred q<8>; .reg .b32 z<8>; .reg .b32 b;\n"
        " and.b32 b, %2, 1; setp.eq.b32 q0, b, 0;\n"
        " and.b32 b, %2, 2; setp.eq.b32 q1, b, 0;\n"
        " and.b32 b, %2, 4; setp.eq.b32 q2, b, 0;\n"
        " and.b32 b, %2, 8; setp.eq.b32 q3, b, 0;\n"
        " and.b32 b, %2, 16; setp.eq.b32 q4, b, 0;\n"
        " and.b32 b, %2, 32; setp.eq.b32 q5, b, 0;\n"
        " and.b32 b, %2, 64; setp.eq.b32 q6, b, 0;\n"
        " and.b32 b, %2, 128; setp.eq.b32 q7, b, 0;\n"
        " selp.b32 z0, 16, 0, q0; selp.b32 z1, 16, 0, q1; selp.b32 z2, 16, 0, q2; selp.b32 z3, 16, 0, q3;\n"
        " selp.b32 z4, 16, 0, q4; selp.b32 z5, 16, 0, q5; selp.b32 z6, 16, 0, q6; selp.b32 z7, 16, 0, q7;\n"
        " cp.async.cg.shared.global [%0+0], [%1], 16, z0;\n"
        " cp.async.cg.shared.global [%0+4096], [%1], 16, z1;\n"
        " cp.async.cg.shared.global [%0+8192], [%1], 16, z2;\n"
        " cp.async.cg.shared.global [%0+12288], [%1], 16, z3;\n"
        " cp.async.cg.shared.global [%0+16384], [%1], 16, z4;\n"
        " cp.async.cg.shared.global [%0+20480], [%1], 16, z5;\n"
        " cp.async.cg.shared.global [%0+24576], [%1], 16, z6;\n"
        " cp.async.cg.shared.global [%0+28672], [%1], 16, z7;\n"
        "}" ::"r"(d), "l"(g), "r"(m));
    else asm volatile(
        "{ .reg .pred q<8>; .reg .b32 z<8>; .reg .b32 b;\n"
        " and.b32 b, %2, 1; setp.ne.b32 q0, b, 0;\n"
        " and.b32 b, %2, 2; setp.ne.b32 q1, b, 0;\n"
        " and.b32 b, %2, 4; setp.ne.b32 q2, b, 0;\n"
        " and.b32 b, %2, 8; setp.ne.b32 q3, b, 0;\n"
        " and.b32 b, %2, 16; setp.ne.b32 q4, b, 0;\n"
        " and.b32 b, %2, 32; setp.ne.b32 q5, b, 0;\n"
        " and.b32 b, %2, 64; setp.ne.b32 q6, b, 0;\n"
        " and.b32 b, %2, 128; setp.ne.b32 q7, b, 0;\n"
        " selp.b32 z0, 16, 0, q0; selp.b32 z1, 16, 0, q1; selp.b32 z2, 16, 0, q2; selp.b32 z3, 16, 0, q3;\n"
        " selp.b32 z4, 16, 0, q4; selp.b32 z5, 16, 0, q5; selp.b32 z6, 16, 0, q6; selp.b32 z7, 16, 0, q7;\n"
        " cp.async.cg.shared.global [%0], [%1], 16, z0;\n"
        " cp.async.cg.shared.global [%0+4096], [%1], 16, z1;\n"
        " cp.async.cg.shared.global [%0+8192], [%1], 16, z2;\n"
        " cp.async.cg.shared.global [%0+12288], [%1], 16, z3;\n"
        " cp.async.cg.shared.global [%0+16384], [%1], 16, z4;\n"
        " cp.async.cg.shared.global [%0+20480], [%1], 16, z5;\n"
        " cp.async.cg.shared.global [%0+24576], [%1], 16, z6;\n"
        " cp.async.cg.shared.global [%0+28672], [%1], 16, z7;\n"
        "}" ::"r"(d), "l"(g), "r"(m));
    asm volatile("cp.async.wait_all;");
    __syncwarp();
    out[t] = t;
}

int main(int argc, char **argv) {
    // rows file: name then 96 ints per line
    FILE *f = fopen(argc > 1 ? argv[1] : "layouts.txt", "r");
    if (!f) { fprintf(stderr, "no layouts file\n"); return 2; }
    std::vector<std::vector<int>> rows;
    std::vector<std::string> names;
    char name[128];
    while (fscanf(f, "%127s", name) == 1) {
        std::vector<int> v(96);
        for (int i = 0; i < 96; i++) if (fscanf(f, "%d", &v[i]) != 1) { fprintf(stderr, "bad row\n"); return 2; }
        rows.push_back(v);
        names.push_back(name);
    }
    char *in;
    int *out, *tab;
    cudaMalloc(&in, 1 << 20);
    cudaMalloc(&out, 32 * 4);
    cudaMalloc(&tab, 96 * 4);
    cudaMemset(in, 1, 1 << 20);
    for (size_t r = 0; r < rows.size(); r++) {
        cudaMemcpy(tab, rows[r].data(), 96 * 4, cudaMemcpyHostToDevice);
        printf("%zu %s\n", 2 * r, names[r].c_str());
        printf("%zu %s\n", 2 * r + 1, names[r].c_str());
        pz<0><<<1, 32>>>(out, in + 4096, tab);
        pz<1><<<1, 32>>>(out, in + 4096, tab);
    }
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "%s (%zu launches)\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e), rows.size());
    return e != cudaSuccess;
}
