// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero --arg buf:128:zero
// Lane 3 writes a[3] (global memory); the lanes of MASK (0x0010ffffu) then run __syncwarp(MASK);
// lane 20 reads a[3]. A __syncwarp orders the accesses of the lanes its mask names only.
// Lanes 3 and 20 are both in 0x0010ffff: the __syncwarp orders lane 3's write before lane 20's
// read. Race-free (the twin of gr_syncwarp_mask, which differs only by the mask).
#define MASK 0x0010ffffu
extern "C" __global__ void gn_syncwarp_mask_global(const int *in, int *a, int *out) {
    int l = threadIdx.x, v = 0;
    if (l == 3) a[3] = in[l] + 42;
    if ((MASK >> l) & 1) __syncwarp(MASK);
    if (l == 20) v = a[(in[l] + 3) & 31]; // in[] is zero: a[3]
    out[l] = v;
}
