// deinterleave4.cu with the swizzle `warpscope fix` proposes as the zero-cost alternative:
// Swizzle<3,4,4> on the byte offset, o ^ (((o >> 8) & 7) << 4); on the float4 index i = 8 r + c that
// is c ^ ((r >> 1) & 7). Same results; no extra shared memory.
#define SWIZZLE(r, c) ((c) ^ (((r) >> 1) & 7))
#define deinterleave4 deinterleave4Fix
#include "deinterleave4.cu"
