// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Lane 3 writes s[3]; the lanes of MASK (0x0000ffffu) then exchange a value with __shfl_sync(MASK, ...);
// lane 20 reads s[3]. A synchronising shuffle orders the lanes its mask names only.
// Lane 20 is not in 0x0000ffff: nothing orders its read after lane 3's write, a race. The twin
// gn_shfl_mask differs only by the mask, which names lane 20.
#define MASK 0x0000ffffu
extern "C" __global__ void sr_shfl_mask(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x, v = l;
    if (l == 3) s[3] = in[l] + 42;
    if ((MASK >> l) & 1) v = __shfl_sync(MASK, v, 3);
    if (l == 20) v += s[(in[l] + 3) & 31]; // in[] is zero: s[3]
    out[l] = v;
}
