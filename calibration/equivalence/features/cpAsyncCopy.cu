// cp.async (LDGSTS): .ca 4, 8 and 16 bytes, .cg 16 bytes (with and without an L2 prefetch hint),
// zero-fill by src-size (random 0..cp-size), the ignore-src predicate form, in two commit groups
// waited with wait_group 1, wait_group 0 and wait_all. Shared memory is first filled with a marker
// so that zero-filled and untouched bytes differ. Each thread copies from random aligned offsets.
// Launch: grid 2, block 64. Args: out (2 x 8192 bytes: the blocks' shared windows), in (16384 bytes
// of source data + 128 threads x 8 words of offsets).
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

extern "C" __global__ void cpAsyncCopy(unsigned *out, const unsigned char *in)
{
    __shared__ __align__(16) unsigned char win[8192];
    unsigned tid = threadIdx.x, t = blockIdx.x * blockDim.x + tid;
    for (unsigned k = tid; k < 2048; k += blockDim.x) ((unsigned *)win)[k] = 0xa5a5a5a5u;
    __syncthreads();
    const unsigned *r = (const unsigned *)(in + 16384) + t * 8;
    // each thread owns 128 bytes of the window: [tid * 128, tid * 128 + 128)
    unsigned d = smem(win) + tid * 128;
    const unsigned char *g = in;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d), "l"(g + (r[0] & 4092)) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d + 8), "l"(g + (r[1] & 16376)) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(d + 16), "l"(g + (r[2] & 16368)) : "memory");
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d + 32), "l"(g + (r[3] & 16368)) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    unsigned z4 = r[4] % 5, z8 = (r[4] >> 8) % 9, z16 = (r[4] >> 16) % 17, zc = (r[4] >> 24) % 17;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(d + 48), "l"(g + (r[5] & 4092)), "r"(z4) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(d + 56), "l"(g + (r[5] & 16376)), "r"(z8) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" :: "r"(d + 64), "l"(g + (r[6] & 16368)), "r"(z16) : "memory");
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" :: "r"(d + 80), "l"(g + (r[7] & 16368)), "r"(zc) : "memory");
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\tcp.async.cg.shared.global [%0], [%1], 16, q;\n\t}"
                 :: "r"(d + 96), "l"(g + (r[6] & 16368)), "r"(r[7] & 1) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    // the first group is complete: read one of its words back through the window
    unsigned first = *(volatile unsigned *)(win + tid * 128);
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d + 120), "l"(g + (r[1] & 4092)) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    ((unsigned *)win)[tid * 32 + 29] = first;
    __syncthreads();
    for (unsigned k = tid; k < 2048; k += blockDim.x) out[blockIdx.x * 2048 + k] = ((unsigned *)win)[k];
}
