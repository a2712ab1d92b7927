// ldmatrix and stmatrix (m8n8 .b16: .x1, .x2, .x4, with and without .trans). Each warp fills a
// 4 KiB shared tile (256 rows of 16 bytes) from `in`, then every lane reads from a random row
// (rows may repeat: ldmatrix allows it) and the warp writes its 14 result registers per lane.
// Then each warp stores its own random registers with stmatrix into its own 1 KiB region (64 rows;
// row addresses are a permutation, so no two lanes write one row), in six instructions that
// overlap, and copies the region out.
// Launch: grid 2, block 128. Args: ld_out (256 threads x 14 words), st_out (8 warps x 1024 bytes),
// in (4096 + 256 x 8 + 256 x 12 words).
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

extern "C" __global__ void ldStMatrix(unsigned *ld_out, unsigned *st_out, const unsigned *in)
{
    __shared__ __align__(16) unsigned tile[1024];
    __shared__ __align__(16) unsigned region[4][256];
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned k = threadIdx.x; k < 1024; k += blockDim.x) tile[k] = in[blockIdx.x * 1024 + k];
    for (unsigned k = lane; k < 256; k += 32) region[warp][k] = 0x5a5a5a5au;
    __syncthreads();
    const unsigned *r = in + 2048 + t * 8;
    unsigned row = r[0] & 255, rowt = r[1] & 255;
    unsigned a = smem(tile) + row * 16, at = smem(tile) + rowt * 16;
    unsigned *o = ld_out + t * 14;
    unsigned x0, x1, x2, x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x0) : "r"(a));
    o[0] = x0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(a));
    o[1] = x0; o[2] = x1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(a));
    o[3] = x0; o[4] = x1; o[5] = x2; o[6] = x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(x0) : "r"(at));
    o[7] = x0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(at));
    o[8] = x0; o[9] = x1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(at));
    o[10] = x0; o[11] = x1; o[12] = x2; o[13] = x3;
    // stmatrix: rows (lane * s + off) mod 64 of the warp's region, s odd: a permutation
    const unsigned *q = in + 4096 + t * 12;
    unsigned s = (in[4096 + (t & ~31u) * 12] | 1) & 63, off = in[4097 + (t & ~31u) * 12] & 63;
    unsigned base = smem(region[warp]);
    unsigned ra = base + ((lane * s + off) & 63) * 16;
    unsigned rb = base + ((lane * s + off + 17) & 63) * 16;
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(ra), "r"(q[0]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(rb), "r"(q[1]), "r"(q[2]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(rb), "r"(q[3]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(ra), "r"(q[4]), "r"(q[5]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(ra), "r"(q[6]), "r"(q[7]), "r"(q[8]), "r"(q[9]) : "memory");
    if (warp & 1)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                     :: "r"(rb), "r"(q[10]), "r"(q[11]), "r"(q[0]), "r"(q[1]) : "memory");
    __syncwarp();
    unsigned g = blockIdx.x * 4 + warp;
    for (unsigned k = lane; k < 256; k += 32) st_out[g * 256 + k] = region[warp][k];
}
