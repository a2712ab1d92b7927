// Global load requests and sectors of one cp.async per launch (calibration/casectors/README.md).
// Lane t (of one warp) copies W bytes from in + src[t] to shared + dst[t] where ex[t] is set (the
// other lanes branch around the copy). The layout travels in a by-value parameter (read through
// the constant bank), so the copy's source is the launch's only global load.
//   K = 0: cp.async.ca W bytes (LDGSTS.E{,.64,.128}), plain;
//   K = 1: cp.async.ca W bytes with src-size selp(W, 0, rd[t]) (LDGSTS.E* [d], [s], P);
//   K = 2: cp.async.cg 16 bytes, plain (LDGSTS.E.BYPASS.128);
//   K = 3: cp.async.cg 16 bytes with src-size selp(16, 0, rd[t]) (LDGSTS.E.BYPASS.128 [d], [s], P).
// Table line (layouts.txt): name W K, then 32 dst, 32 src (bytes), 32 rd (0/1), 32 ex (0/1).
//   K = 10 + mode: kernel ro (below), the switch arm `mode`.
// Output: one line per launch: index name W K.
// Build: nvcc -O3 -arch=sm_90 -o cas cas.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct Lay {
    int dst[32];
    int src[32];
    int rd[32];
    int ex[32];
};

template <int W, int K> __global__ void cas(const char* in, Lay l) {
    __shared__ __align__(128) char sm[16384];
    int t = threadIdx.x;
    if (l.ex[t]) {
        unsigned d = (unsigned)__cvta_generic_to_shared(sm + l.dst[t]);
        const char* s = in + l.src[t];
        if (K == 0) {
            asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(s), "n"(W));
        } else if (K == 1) {
            asm volatile("{ .reg .pred q; .reg .b32 z; setp.ne.b32 q, %3, 0; selp.b32 z, %2, 0, q;\n"
                         " cp.async.ca.shared.global [%0], [%1], %2, z; }\n" ::"r"(d),
                         "l"(s), "n"(W), "r"(l.rd[t]));
        } else if (K == 2) {
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(s));
        } else {
            asm volatile("{ .reg .pred q; .reg .b32 z; setp.ne.b32 q, %2, 0; selp.b32 z, 16, 0, q;\n"
                         " cp.async.cg.shared.global [%0], [%1], 16, z; }\n" ::"r"(d),
                         "l"(s), "r"(l.rd[t]));
        }
    }
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    __syncwarp();
}


// ro: copies ptxas lays out in another order than the PTX (the switch's arms), one arm per launch
// (mode = K - 10): `.cg` ignore-src and src-size selp copies with predicates from bits of rd[t],
// and plain `.ca` copies, each to its own shared region.
#define CGI(OFF, BIT)                                                                              \
    asm volatile("{ .reg .pred p; .reg .b32 b; and.b32 b, %2, " #BIT "; setp.ne.b32 p, b, 0;\n"    \
                 " cp.async.cg.shared.global [%0+" #OFF "], [%1], 16, p; }" ::"r"(d),              \
                 "l"(s), "r"(m))
#define CGS(OFF, BIT)                                                                              \
    asm volatile("{ .reg .pred p; .reg .b32 b; .reg .b32 z; and.b32 b, %2, " #BIT ";\n"            \
                 " setp.ne.b32 p, b, 0; selp.b32 z, 16, 0, p;\n"                                   \
                 " cp.async.cg.shared.global [%0+" #OFF "], [%1], 16, z; }" ::"r"(d),              \
                 "l"(s), "r"(m))
#define CA(OFF, W)                                                                                 \
    asm volatile("cp.async.ca.shared.global [%0+" #OFF "], [%1], " #W ";" ::"r"(d), "l"(s))
__global__ void ro(const char* in, Lay l, int mode) {
    __shared__ __align__(128) char sm[7 * 4096];
    int t = threadIdx.x;
    unsigned d = (unsigned)__cvta_generic_to_shared(sm + l.dst[t]);
    const char* s = in + l.src[t];
    int m = l.rd[t];
    switch (mode) {
    case 0: CGI(0, 1); break;
    case 1: CA(4096, 16); break;
    case 2: CGI(8192, 2); break;
    case 3: CA(12288, 8); break;
    case 4: CGS(16384, 4); break;
    case 5: CGI(20480, 8); CGS(24576, 16); break;
    default: break;
    }
    asm volatile("cp.async.wait_all;\n" ::: "memory");
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: cas layouts.txt\n");
        return 2;
    }
    FILE* f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    char* in = nullptr;
    if (cudaMalloc(&in, 1 << 20) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(in, 1, 1 << 20);
    char name[128];
    int w, k, n = 0;
    while (fscanf(f, "%127s %d %d", name, &w, &k) == 3) {
        Lay l;
        for (int* a : {l.dst, l.src, l.rd, l.ex})
            for (int i = 0; i < 32; i++)
                if (fscanf(f, "%d", &a[i]) != 1) {
                    fprintf(stderr, "bad line %s\n", name);
                    return 2;
                }
        if (k >= 2) w = 16;
        if (k >= 10) {
            ro<<<1, 32>>>(in, l, k - 10);
        } else
        switch (w * 4 + k) {
        case 16: cas<4, 0><<<1, 32>>>(in, l); break;
        case 17: cas<4, 1><<<1, 32>>>(in, l); break;
        case 32: cas<8, 0><<<1, 32>>>(in, l); break;
        case 33: cas<8, 1><<<1, 32>>>(in, l); break;
        case 64: cas<16, 0><<<1, 32>>>(in, l); break;
        case 65: cas<16, 1><<<1, 32>>>(in, l); break;
        case 66: cas<16, 2><<<1, 32>>>(in, l); break;
        case 67: cas<16, 3><<<1, 32>>>(in, l); break;
        default: fprintf(stderr, "bad form %s %d %d\n", name, w, k); return 2;
        }
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(e));
            return 1;
        }
        printf("%d %s %d %d\n", n++, name, w, k);
    }
    return 0;
}
