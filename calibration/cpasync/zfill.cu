// cp.async (LDGSTS) shared wavefronts for the forms the other tables leave out: the src-size
// (zero-fill, SASS .ZFILL) operand of 16-byte .cg copies and of 4/8-byte .ca copies, the
// ignore-src predicate, and 4/8-byte .ca copies with bank conflicts on both the shared and the
// source side. One warp per launch; lane t copies W bytes from global word unit (t * sstride) to
// shared unit (t * dstride + doff) (units of W bytes), with src-size by `mode`:
//   0: W (a plain copy, but through the register form)  1: 0 (all zero-fill)  2: W/2
//   3: W on even lanes, 0 on odd ones                   4: W on lanes 0-15, 0 on 16-31
//   5: the form without src-size (the reference)        6: ignore-src predicate false
//   7: ignore-src predicate true
// The host prints one line per launch, in launch order: "row kind W dstride sstride doff mode".
// Build: nvcc -O3 -arch=sm_90 -o zfill zfill.cu
#include <cstdio>

__device__ __forceinline__ void copy(int kind, unsigned d, const void *s, int sz, int mode) {
    if (kind == 16) {
        if (mode == 5) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(s));
        else if (mode >= 6) {
            asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0;\n"
                         " cp.async.cg.shared.global [%0], [%1], 16, p; }" ::"r"(d), "l"(s), "r"(mode - 6));
        } else asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(s), "r"(sz));
    } else if (kind == 8) {
        if (mode == 5) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(d), "l"(s));
        else asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(d), "l"(s), "r"(sz));
    } else {
        if (mode == 5) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d), "l"(s));
        else asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(s), "r"(sz));
    }
}

__global__ void zfill(int *out, const char *in, int w, int dstride, int sstride, int doff, int mode) {
    __shared__ __align__(128) char s[40960];
    int t = threadIdx.x;
    long slot = ((long)(t * dstride + doff) * w) % 36864 + 2048;  // negative strides stay inside
    int sz = mode == 0 ? w : mode == 1 ? 0 : mode == 2 ? w / 2 : mode == 3 ? ((t & 1) ? 0 : w)
           : mode == 4 ? (t < 16 ? w : 0) : w;
    unsigned d = (unsigned)__cvta_generic_to_shared(&s[slot]);
    copy(w, d, in + (long)t * sstride * w + 4096, sz, mode);
    asm volatile("cp.async.wait_all;");
    __syncwarp();
    out[t] = *(int *)&s[slot];
}

int main() {
    char *in;
    int *out;
    cudaMalloc(&in, 1 << 20);
    cudaMalloc(&out, 32 * 4);
    cudaMemset(in, 1, 1 << 20);
    int row = 0;
    auto go = [&](int w, int ds, int ss, int off, int mode) {
        printf("%d %d %d %d %d %d\n", row++, w, ds, ss, off, mode);
        zfill<<<1, 32>>>(out, in, w, ds, ss, off, mode);
    };
    // 16-byte .cg: the zero-fill forms over destination/source layouts
    for (int mode : {5, 0, 1, 2, 3, 4})
        for (int ss : {1, 2, 0})
            for (int ds : {0, 1, 2, 3, 4, 8, -1})
                for (int off : {0, 1}) go(16, ds, ss, off, mode);
    for (int mode : {6, 7})
        for (int ds : {1, 2, 0}) go(16, ds, 1, 0, mode);
    // 4- and 8-byte .ca with src-size
    for (int w : {4, 8})
        for (int mode : {0, 1, 3})
            for (int ds : {1, 2, 32})
                for (int ss : {1, 2}) go(w, ds, ss, 0, mode);
    // 4- and 8-byte .ca (no src-size) with conflicts on both sides
    for (int ds : {1, 2, 3, 4, 8, 16, 32, 33})
        for (int ss : {1, 2, 3, 4, 8, 32, 33}) go(4, ds, ss, 0, 5);
    for (int ds : {1, 2, 4, 8, 16})
        for (int ss : {1, 2, 4, 8, 16}) go(8, ds, ss, 0, 5);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "%s (%d launches)\n", e == cudaSuccess ? "PASS" : cudaGetErrorString(e), row);
    return e != cudaSuccess;
}
