// Host-side helpers for the calibration kernels' check programs (compiled only with -DWARPSCOPE_HOST).
// Each kernel file holds its kernel(s) first and, under WARPSCOPE_HOST, a main() that fills deterministic
// pseudo-random inputs, launches exactly the manifest's configuration, and checks the output against a
// CPU reference. The kernel code never depends on this header, so NVRTC compiles the files as they are.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                         cudaGetErrorString(e_));                                             \
            std::exit(2);                                                                     \
        }                                                                                     \
    } while (0)

// splitmix64: deterministic pseudo-random numbers, the same on every machine.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    float uniform() { return (float)(next() >> 40) / (float)(1ull << 24) * 2.0f - 1.0f; }
    int small_int() { return (int)(next() % 201) - 100; }
};

template <class ElemT> struct DevBuf {
    ElemT *d = nullptr;
    size_t n;
    explicit DevBuf(size_t n_) : n(n_) {
        CK(cudaMalloc(&d, n * sizeof(ElemT)));
        CK(cudaMemset(d, 0xA5, n * sizeof(ElemT)));  // poison: every output element must be written
    }
    DevBuf(const std::vector<ElemT> &h) : DevBuf(h.size()) {
        CK(cudaMemcpy(d, h.data(), n * sizeof(ElemT), cudaMemcpyHostToDevice));
    }
    std::vector<ElemT> get() const {
        std::vector<ElemT> h(n);
        CK(cudaMemcpy(h.data(), d, n * sizeof(ElemT), cudaMemcpyDeviceToHost));
        return h;
    }
    ~DevBuf() { cudaFree(d); }
};

inline void launched(const char *name) {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    (void)name;
}

template <class ElemT> int expect_equal(const char *name, const std::vector<ElemT> &got, const std::vector<ElemT> &want) {
    if (got.size() != want.size()) {
        std::fprintf(stderr, "%s: FAIL size %zu vs %zu\n", name, got.size(), want.size());
        return 1;
    }
    for (size_t i = 0; i < got.size(); i++) {
        if (!(got[i] == want[i])) {
            std::fprintf(stderr, "%s: FAIL at %zu: got %f want %f\n", name, i, (double)got[i], (double)want[i]);
            return 1;
        }
    }
    std::printf("%s: PASS (%zu values)\n", name, got.size());
    return 0;
}

template <class ElemT>
int expect_close(const char *name, const std::vector<ElemT> &got, const std::vector<double> &want, double rel) {
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); i++) {
        double d = (double)got[i] - want[i];
        if (std::isnan((double)got[i])) {
            std::fprintf(stderr, "%s: FAIL NaN at %zu\n", name, i);
            return 1;
        }
        num += d * d;
        den += want[i] * want[i];
    }
    double err = std::sqrt(num / (den > 0 ? den : 1));
    if (got.size() != want.size() || err > rel) {
        std::fprintf(stderr, "%s: FAIL relative error %g (limit %g)\n", name, err, rel);
        return 1;
    }
    std::printf("%s: PASS (relative error %.2g)\n", name, err);
    return 0;
}

// Launches `kernel(int *out)` once and compares out[i] with want(i) for every i < n.
template <class K, class F>
int check_int_kernel(const char *name, K kernel, dim3 grid, dim3 block, unsigned dyn, size_t n, F want) {
    DevBuf<int> out(n);
    kernel<<<grid, block, dyn>>>(out.d);
    launched(name);
    std::vector<int> ref(n);
    for (size_t i = 0; i < n; i++) ref[i] = want((unsigned)i);
    return expect_equal(name, out.get(), ref);
}
