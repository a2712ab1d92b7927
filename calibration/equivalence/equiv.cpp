// Emulator-versus-GPU equivalence: runs every kernel of manifest.tsv on a real GPU from the SAME
// checked-in PTX the emulator runs (loaded through the CUDA driver's JIT), with the SAME initial
// buffer bytes, and prints an FNV-1a 64 hash of every buffer argument before and after the launch.
//
// Usage: equiv MANIFEST.tsv REPO_ROOT OUT_DIR > gpu_hashes.tsv
//   OUT_DIR receives NAME.argI.bin: the final bytes of every buffer the kernel changed, so that a
//   mismatch can be reported element by element.
//
// Build (on the GPU machine): nvcc -O3 -arch=sm_90 -o equiv equiv.cpp -lcuda
//
// Buffer generator: `buf:N` arguments are filled exactly as warpscope's launch spec does
// (crates/analysis/src/launchspec.rs, random_bytes(n, seed) with seed = the argument's position):
//   s = seed * 0x2545F4914F6CDD1D ^ 0x5EED;
//   repeat: s += 0x9E3779B97F4A7C15; z = s; z = (z ^ z>>30) * 0xBF58476D1CE4E5B9;
//           z = (z ^ z>>27) * 0x94D049BB133111EB; z ^= z>>31; append z's 8 bytes little-endian;
//   truncate to N bytes.
// `buf:N:zero` is N zero bytes. The init_fnv column lets the Rust test check this reimplementation.
//
// PTX version: the fixtures say `.version 9.5` (nvcc 13.5). If the driver's JIT refuses that
// version, the `.version` line alone is lowered (9.0, 8.8, 8.5, 8.0 tried in order) and the
// version used is printed in the ptx_version column; no instruction text is changed.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static void die(const char *what, CUresult r) {
    const char *s = nullptr;
    cuGetErrorString(r, &s);
    std::fprintf(stderr, "equiv: %s: %s\n", what, s ? s : "?");
    std::exit(2);
}
#define CU(call)                      \
    do {                              \
        CUresult r_ = (call);         \
        if (r_ != CUDA_SUCCESS) die(#call, r_); \
    } while (0)

static std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
    uint64_t s = (seed * 0x2545F4914F6CDD1Dull) ^ 0x5EEDull;
    std::vector<uint8_t> out;
    out.reserve(n + 8);
    while (out.size() < n) {
        s += 0x9E3779B97F4A7C15ull;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        for (int i = 0; i < 8; i++) out.push_back((uint8_t)(z >> (8 * i)));
    }
    out.resize(n);
    return out;
}

static uint64_t fnv1a64(const std::vector<uint8_t> &b) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t x : b) {
        h ^= x;
        h *= 0x100000001b3ull;
    }
    return h;
}

static std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

static void dims(const std::string &s, unsigned d[3]) {
    d[0] = d[1] = d[2] = 1;
    auto p = split(s, ',');
    for (size_t i = 0; i < p.size() && i < 3; i++) d[i] = (unsigned)std::stoul(p[i]);
}

static long long num(const std::string &v) {
    if (v.rfind("0x", 0) == 0) return (long long)std::stoull(v.substr(2), nullptr, 16);
    return std::stoll(v);
}

struct ArgVal {
    bool is_buf = false;
    std::vector<uint8_t> init;
    CUdeviceptr dev = 0;
    alignas(8) unsigned char scalar[8] = {0};
};

static std::string with_version(const std::string &ptx, const char *ver) {
    size_t p = ptx.find(".version ");
    if (p == std::string::npos) return ptx;
    size_t e = ptx.find('\n', p);
    return ptx.substr(0, p) + ".version " + ver + ptx.substr(e);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s MANIFEST.tsv REPO_ROOT OUT_DIR\n", argv[0]);
        return 2;
    }
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    char devname[256];
    CU(cuDeviceGetName(devname, sizeof devname, dev));
    int drv = 0;
    CU(cuDriverGetVersion(&drv));
    std::printf("# device: %s; driver API %d\n", devname, drv);
    std::printf("name\targ\tbytes\tinit_fnv\tfinal_fnv\tchanged\tptx_version\n");

    std::ifstream man(argv[1]);
    std::string line;
    std::getline(man, line);  // header
    int failures = 0;
    while (std::getline(man, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto c = split(line, '\t');
        if (c.size() < 8) {
            std::fprintf(stderr, "equiv: bad manifest line: %s\n", line.c_str());
            return 2;
        }
        const std::string &name = c[1], &path = c[2], &kname = c[3];
        std::ifstream pf(std::string(argv[2]) + "/" + path);
        if (!pf) {
            std::fprintf(stderr, "equiv: %s: cannot read %s\n", name.c_str(), path.c_str());
            return 2;
        }
        std::stringstream ss;
        ss << pf.rdbuf();
        std::string ptx = ss.str();
        CUmodule mod = nullptr;
        std::string used = "as-is";
        CUresult r = cuModuleLoadData(&mod, ptx.c_str());
        const char *fallbacks[] = {"9.0", "8.8", "8.5", "8.0"};
        for (const char *v : fallbacks) {
            if (r == CUDA_SUCCESS) break;
            std::string p2 = with_version(ptx, v);
            r = cuModuleLoadData(&mod, p2.c_str());
            if (r == CUDA_SUCCESS) used = v;
        }
        if (r != CUDA_SUCCESS) {
            const char *s = nullptr;
            cuGetErrorString(r, &s);
            std::fprintf(stderr, "equiv: %s: module load failed: %s\n", name.c_str(), s ? s : "?");
            failures++;
            continue;
        }
        CUfunction fn;
        CU(cuModuleGetFunction(&fn, mod, kname.c_str()));
        unsigned g[3], b[3];
        dims(c[4], g);
        dims(c[5], b);
        unsigned dyn = (unsigned)std::stoul(c[6]);
        if (dyn > 48 * 1024) CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dyn));
        auto specs = split(c[7], ' ');
        std::vector<ArgVal> args(specs.size());
        std::vector<void *> params;
        for (size_t i = 0; i < specs.size(); i++) {
            const std::string &sp = specs[i];
            size_t colon = sp.find(':');
            std::string kind = sp.substr(0, colon), val = sp.substr(colon + 1);
            ArgVal &a = args[i];
            if (kind == "buf") {
                a.is_buf = true;
                auto parts = split(val, ':');
                size_t n = (size_t)num(parts[0]);
                a.init = (parts.size() > 1 && parts[1] == "zero") ? std::vector<uint8_t>(n, 0) : random_bytes(n, i);
                CU(cuMemAlloc(&a.dev, n ? n : 1));
                if (n) CU(cuMemcpyHtoD(a.dev, a.init.data(), n));
                std::memcpy(a.scalar, &a.dev, 8);
            } else if (kind == "u32" || kind == "i32") {
                uint32_t v = (uint32_t)num(val);
                std::memcpy(a.scalar, &v, 4);
            } else if (kind == "u64" || kind == "i64") {
                uint64_t v = (uint64_t)num(val);
                std::memcpy(a.scalar, &v, 8);
            } else if (kind == "f32") {
                float v = std::stof(val);
                std::memcpy(a.scalar, &v, 4);
            } else if (kind == "f64") {
                double v = std::stod(val);
                std::memcpy(a.scalar, &v, 8);
            } else {
                std::fprintf(stderr, "equiv: %s: unknown argument kind %s\n", name.c_str(), kind.c_str());
                return 2;
            }
        }
        for (auto &a : args) params.push_back(a.scalar);
        CU(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], dyn, nullptr, params.data(), nullptr));
        CUresult sr = cuCtxSynchronize();
        if (sr != CUDA_SUCCESS) die(name.c_str(), sr);
        for (size_t i = 0; i < args.size(); i++) {
            ArgVal &a = args[i];
            if (!a.is_buf) continue;
            std::vector<uint8_t> fin(a.init.size());
            if (!fin.empty()) CU(cuMemcpyDtoH(fin.data(), a.dev, fin.size()));
            bool changed = fin != a.init;
            std::printf("%s\t%zu\t%zu\t%016llx\t%016llx\t%d\t%s\n", name.c_str(), i, fin.size(),
                        (unsigned long long)fnv1a64(a.init), (unsigned long long)fnv1a64(fin), changed ? 1 : 0,
                        used.c_str());
            if (changed) {
                std::string out = std::string(argv[3]) + "/" + name + ".arg" + std::to_string(i) + ".bin";
                FILE *f = std::fopen(out.c_str(), "wb");
                if (!f || std::fwrite(fin.data(), 1, fin.size(), f) != fin.size()) {
                    std::fprintf(stderr, "equiv: cannot write %s\n", out.c_str());
                    return 2;
                }
                std::fclose(f);
            }
            CU(cuMemFree(a.dev));
        }
        CU(cuModuleUnload(mod));
    }
    CU(cuDevicePrimaryCtxRelease(dev));
    return failures ? 1 : 0;
}
