// expect: global_race
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Each lane writes its global word, the lower 16 lanes exchange a value by __shfl_xor_sync over
// mask 0x0000ffff, then every lane reads lane (t ^ 16)'s word. The shuffle orders only the lanes
// of its mask: the upper lanes took part in none and read the lower lanes' words unordered (and
// the lower lanes the upper lanes').
extern "C" __global__ void gr_shfl_half_mask_global(int *data, int *out) {
    int t = threadIdx.x;
    data[t] = t * 11;
    int v = t;
    if (t < 16) v = __shfl_xor_sync(0x0000ffffu, v, 1);
    out[t] = data[t ^ 16] + v;
}
