// ptxas lays the copies of this switch out in another order than the PTX, and two `.cg` copies
// share a destination offset, so which LDGSTS is which cannot be told (crates/driver/tests/casectors_replay.rs).
// Built with: nvcc -O3 -arch=sm_90 -ptx -o ro_dup.ptx ro_dup.cu; nvcc -O3 -arch=sm_90 -cubin -o ro_dup.cubin ro_dup.cu
struct Lay { int dst[32]; int src[32]; int rd[32]; };
#define CGI(OFF, BIT) asm volatile("{ .reg .pred p; .reg .b32 b; and.b32 b, %2, " #BIT "; setp.ne.b32 p, b, 0;\n" \
    " cp.async.cg.shared.global [%0+" #OFF "], [%1], 16, p; }" ::"r"(d), "l"(s), "r"(m))
#define CGS(OFF, BIT) asm volatile("{ .reg .pred p; .reg .b32 b; .reg .b32 z; and.b32 b, %2, " #BIT "; setp.ne.b32 p, b, 0; selp.b32 z, 16, 0, p;\n" \
    " cp.async.cg.shared.global [%0+" #OFF "], [%1], 16, z; }" ::"r"(d), "l"(s), "r"(m))
#define CA(OFF, W) asm volatile("cp.async.ca.shared.global [%0+" #OFF "], [%1], " #W ";" ::"r"(d), "l"(s))
__global__ void ro(const char* in, Lay l, int mode) {
    __shared__ __align__(128) char sm[6 * 4096];
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
    case 5: CGI(20480, 8); CGS(0, 16); break;
    default: break;
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
}
