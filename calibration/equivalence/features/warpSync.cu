// Warp-synchronous collectives: redux.sync (add, min, max, and, or, xor; unsigned and signed),
// match.any/all.sync (32 and 64 bits), elect.sync and activemask, over the whole warp and over a
// divergent subset (the lanes whose input has a low bit pattern, their mask taken by a ballot).
// Launch: grid 2, block 80 (a partial last warp of 16 lanes). Args: out (160 threads x 24 words),
// in (160 x 2 words). Unwritten words keep 0xdeadbeef.
#include <cstdint>

__device__ __forceinline__ unsigned elect_leader(unsigned m, unsigned *is_leader)
{
    unsigned leader, p;
    asm volatile("{\n\t.reg .pred e;\n\telect.sync %0|e, %2;\n\tselp.u32 %1, 1, 0, e;\n\t}"
                 : "=r"(leader), "=r"(p)
                 : "r"(m));
    *is_leader = p;
    return leader;
}

extern "C" __global__ void warpSync(unsigned *out, const unsigned *in)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[2 * t], w = in[2 * t + 1];
    unsigned *o = out + t * 24;
    for (int k = 0; k < 24; k++) o[k] = 0xdeadbeefu;
    unsigned full = __activemask();
    o[0] = full;
    o[1] = __reduce_add_sync(full, v);
    o[2] = (unsigned)__reduce_max_sync(full, (int)v);
    o[3] = __reduce_xor_sync(full, w);
    unsigned uniform = ((threadIdx.x >> 5) + blockIdx.x) & 1 ? 7u : (v & 3);
    int pred = 0;
    o[4] = __match_all_sync(full, uniform, &pred);
    o[5] = (unsigned)pred;
    bool c = (w & 3) != 0;
    unsigned m = __ballot_sync(full, c);
    if (c) {
        o[6] = __activemask();
        o[7] = __reduce_add_sync(m, v);
        o[8] = __reduce_min_sync(m, v);
        o[9] = __reduce_max_sync(m, v);
        o[10] = (unsigned)__reduce_min_sync(m, (int)v);
        o[11] = (unsigned)__reduce_max_sync(m, (int)v);
        o[12] = __reduce_and_sync(m, v | 0xff0ff0ffu);
        o[13] = __reduce_or_sync(m, v & w & 0x00f00f00u);
        o[14] = __reduce_xor_sync(m, v);
        o[15] = (unsigned)__reduce_add_sync(m, (int)(v >> 4) - 0x4000000);
        o[16] = __match_any_sync(m, v & 3);
        unsigned long long wide = ((unsigned long long)(v & 1) << 40) | (w >> 30);
        o[17] = __match_any_sync(m, wide);
        o[18] = __match_all_sync(m, wide, &pred);
        o[19] = (unsigned)pred;
        unsigned is_leader;
        o[20] = elect_leader(m, &is_leader);
        o[21] = is_leader;
    } else {
        o[22] = __activemask();
    }
    unsigned is_leader;
    o[23] = elect_leader(full & 0xfffffff0u, &is_leader) * 2 + is_leader;
}
