// expect: race
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:512:zero
// Warp 0 stores a tile with stmatrix.x4, warp 1 reads it with no barrier between: its reads race
// with the stmatrix's writes.
extern "C" __global__ void sr_stmatrix_other_warp_nosync(const int *in, int *out) {
    __shared__ __align__(16) int tile[32 * 4];
    int t = threadIdx.x, l = t % 32;
    if (t < 32) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&tile[l * 4]);
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a),
                     "r"(in[l * 4]), "r"(in[l * 4 + 1]), "r"(in[l * 4 + 2]), "r"(in[l * 4 + 3]) : "memory");
    } else {
        for (int k = 0; k < 4; ++k) out[l * 4 + k] = tile[l * 4 + k];
    }
}
