// expect: none
// launch: --grid 1 --block 32 --arg buf:512 --arg buf:512:zero
// One warp stores four 8x8 16-bit matrices with stmatrix.sync.aligned.m8n8.x4 (lane i names
// row i), __syncwarp(), then each lane reads another lane's row (race-free).
extern "C" __global__ void gn_stmatrix_syncwarp_read(const int *in, int *out) {
    __shared__ __align__(16) int tile[32 * 4];
    int l = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[l * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a),
                 "r"(in[l * 4]), "r"(in[l * 4 + 1]), "r"(in[l * 4 + 2]), "r"(in[l * 4 + 3]) : "memory");
    __syncwarp();
    for (int k = 0; k < 4; ++k) out[l * 4 + k] = tile[((l + 5) % 32) * 4 + k];
}
