// Branch targets of one double division per warp (every lane the same pair), one launch per pair,
// for Nsight Compute's smsp__sass_branch_targets.sum: pairs around each edge of the fast-path test
// (calibration/ddiv/README.md). The host prints one line per launch, in launch order:
// "row a_bits b_bits". Build: nvcc -O2 -arch=sm_90 -cudart shared -o ddiv_branch ddiv_branch.cu
#include <cstdio>

__global__ void one(const unsigned long long *ab, double *out) {
    double a = __longlong_as_double(ab[0]), b = __longlong_as_double(ab[1]);
    out[threadIdx.x] = a / b;
}

int main() {
    unsigned long long *d;
    double *o;
    cudaMalloc(&d, 16);
    cudaMalloc(&o, 32 * 8);
    int row = 0;
    auto go = [&](unsigned long long a, unsigned long long b) {
        unsigned long long h[2] = {a, b};
        cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
        printf("%d %016llx %016llx\n", row++, a, b);
        one<<<1, 32>>>(d, o);
    };
    const unsigned long long M[3] = {0, 1, 0xfffffffffffffull};
    auto bits = [](unsigned long long e, unsigned long long m) { return e << 52 | m; };
    // exp(a) around 54, b = 1.0
    for (int ea = 48; ea <= 60; ++ea)
        for (auto m : M) go(bits(ea, m), bits(1023, 0));
    // exp(b) around 2040, a = 1.0 (and a = 2^1000)
    for (int eb = 2034; eb <= 2047; ++eb)
        for (auto m : M) { go(bits(1023, 0), bits(eb, m)); go(bits(2023, 0), bits(eb, m)); }
    // q around 2^-1022: a = 2^-900 (exp 123), b = 2^(eb - 1023) with eb around 1145
    for (int eb = 1140; eb <= 1150; ++eb)
        for (auto ma : M)
            for (auto mb : M) go(bits(123, ma), bits(eb, mb));
    // q around the top: a = 2^1023 (exp 2046), b small
    for (int eb = 0; eb <= 12; ++eb)
        for (auto m : M) go(bits(2046, m), bits(eb, 0));
    // zeros, infinities, NaN, denormals, ordinary values
    const unsigned long long S[] = {0, 1, 0x000fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull,
                                    0x4008000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
                                    0x7ff8000000000000ull, 0xbff0000000000000ull};
    for (auto a : S)
        for (auto b : S) go(a, b);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "%s (%d launches)\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e), row);
    return e != cudaSuccess;
}
