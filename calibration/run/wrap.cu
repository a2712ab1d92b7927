// 32-bit shared and local addresses wrap: a register holding `base - 64` plus an offset of 68 names
// `base + 4` (the GPU's address arithmetic is 32 bits wide), in every address form: ld/st/atom of the
// shared state space (plain and `::cta`), vector and sub-word accesses, ldmatrix, 64-bit registers
// holding a zero-extended address, and local memory. compute-sanitizer reports no error.
#include <cstdio>

__global__ void wrap(unsigned *out)
{
    __shared__ __align__(16) unsigned sm[128];
    unsigned t = threadIdx.x;
    for (int j = 0; j < 4; ++j) sm[t + 32 * j] = 3 * (t + 32 * j) + 1;
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(sm);
    unsigned r0, r1, r2, r3, r4, r5, r6, r7, r8;
    int neg = -1 - (int)(t >> 10);  // -1, unknown to the compiler
    // plain 4-byte load: [base + 4t - 64 + 68] = sm[t + 1]
    asm volatile("{ .reg .u32 a; mad.lo.s32 a, %1, 64, %2; add.u32 a, a, %3; ld.shared.u32 %0, [a+68]; }"
                 : "=r"(r0) : "r"(neg), "r"(base), "r"(4 * t));
    // ::cta window: sm[t + 2] (every load names its own word, so ptxas merges none)
    asm volatile("{ .reg .u32 a; mad.lo.s32 a, %1, 64, %2; add.u32 a, a, %3; ld.shared::cta.u32 %0, [a+72]; }"
                 : "=r"(r1) : "r"(neg), "r"(base), "r"(4 * t));
    // vector: [base + 8t - 64 + 72] = sm[2t + 2], sm[2t + 3]
    asm volatile("{ .reg .u32 a; mad.lo.s32 a, %2, 64, %3; add.u32 a, a, %4; ld.shared.v2.u32 {%0, %1}, [a+72]; }"
                 : "=r"(r2), "=r"(r3) : "r"(neg), "r"(base), "r"(8 * t));
    // sub-word: the low half of sm[t + 3]
    asm volatile("{ .reg .u32 a; .reg .u16 h; mad.lo.s32 a, %1, 64, %2; add.u32 a, a, %3; ld.shared.u16 h, [a+76];"
                 " cvt.u32.u16 %0, h; }"
                 : "=r"(r4) : "r"(neg), "r"(base), "r"(4 * t));
    // a 64-bit register holding the zero-extended 32-bit sum `base + 4t - 64`: sm[t + 4]
    asm volatile("{ .reg .u32 a; .reg .u64 w; mad.lo.s32 a, %1, 64, %2; add.u32 a, a, %3; cvt.u64.u32 w, a;"
                 " ld.shared.u32 %0, [w+80]; }"
                 : "=r"(r5) : "r"(neg), "r"(base), "r"(4 * t));
    // ldmatrix .x1: rows at base + 16 * (t % 8), given as (that - 64) + 64; thread t gets sm[t]
    asm volatile("{ .reg .u32 a; mad.lo.s32 a, %1, 64, %2; add.u32 a, a, %3; "
                 "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [a+64]; }"
                 : "=r"(r6) : "r"(neg), "r"(base), "r"(16 * (t % 8)));
    __syncthreads();
    // atomic add on sm[t + 65] through the wrapped address: old value
    asm volatile("{ .reg .u32 a; mad.lo.s32 a, %1, 64, %2; add.u32 a, a, %3; atom.shared.add.u32 %0, [a+324], 1000; }"
                 : "=r"(r7) : "r"(neg), "r"(base), "r"(4 * t));
    // store through the wrapped address, read back plainly
    asm volatile("{ .reg .u32 a; mad.lo.s32 a, %0, 64, %1; add.u32 a, a, %2; st.shared.u32 [a+68], %3; }"
                 :: "r"(neg), "r"(base), "r"(4 * t + 380), "r"(7 * t + 5) : "memory");
    __syncthreads();
    r8 = sm[t + 96];
    // local memory: a 32-bit local address below the array, plus an offset past it
    unsigned loc;
    asm volatile("{ .reg .u32 a; .local .align 4 .b8 buf[16]; mov.u32 a, buf; st.local.u32 [a+4], %1;"
                 " add.u32 a, a, %2; ld.local.u32 %0, [a+68]; }"
                 : "=r"(loc) : "r"(11 * t + 2), "r"((unsigned)(-64)));
    unsigned *o = out + 10 * t;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5; o[6] = r6; o[7] = r7; o[8] = r8; o[9] = loc;
}

int main()
{
    unsigned *d, h[320];
    cudaMalloc(&d, sizeof h);
    wrap<<<1, 32>>>(d);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { printf("wrap: %s\n", cudaGetErrorString(e)); return 1; }
    int bad = 0;
    for (unsigned t = 0; t < 32; ++t) {
        unsigned want[10] = {3 * (t + 1) + 1, 3 * (t + 2) + 1, 3 * (2 * t + 2) + 1, 3 * (2 * t + 3) + 1,
                             (3 * (t + 3) + 1) & 0xffff, 3 * (t + 4) + 1, 3 * t + 1, 3 * (t + 65) + 1,
                             7 * t + 5, 11 * t + 2};
        for (int k = 0; k < 10; ++k)
            if (h[10 * t + k] != want[k]) {
                if (bad < 8) printf("thread %u form %d: %u, expected %u\n", t, k, h[10 * t + k], want[k]);
                ++bad;
            }
    }
    printf("wrap: %s (%d of 320 wrong)\n", bad ? "FAILED" : "every wrapped address read what it names", bad);
    return bad != 0;
}
