// expect: global_race
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero --arg buf:128:zero
// Lane 3 writes a[3] (global memory); the lanes of MASK (0x0000ffffu) then run __syncwarp(MASK);
// lane 20 reads a[3]. A __syncwarp orders the accesses of the lanes its mask names only.
// Lane 20 is not in 0x0000ffff: nothing orders its read after lane 3's write, a global race.
// The twin gn_syncwarp_mask_global differs only by the mask, which names lane 20.
#define MASK 0x0000ffffu
extern "C" __global__ void gr_syncwarp_mask(const int *in, int *a, int *out) {
    int l = threadIdx.x, v = 0;
    if (l == 3) a[3] = in[l] + 42;
    if ((MASK >> l) & 1) __syncwarp(MASK);
    if (l == 20) v = a[(in[l] + 3) & 31]; // in[] is zero: a[3]
    out[l] = v;
}
