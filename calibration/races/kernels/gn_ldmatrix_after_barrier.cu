// expect: none
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:512:zero
// Warp 1 writes an 8x8 tile of 16-bit values (four 8x8 matrices' rows: 32 rows of 16 bytes),
// a barrier, then warp 0 loads it with ldmatrix.sync.aligned.m8n8.x4 (each lane names one row)
// and stores the fragments (race-free).
extern "C" __global__ void gn_ldmatrix_after_barrier(const int *in, int *out) {
    __shared__ __align__(16) int tile[32 * 4];
    int t = threadIdx.x, l = t % 32;
    if (t >= 32)
        for (int k = 0; k < 4; ++k) tile[l * 4 + k] = in[l * 4 + k];
    __syncthreads();
    if (t < 32) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&tile[l * 4]);
        unsigned r0, r1, r2, r3;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
        out[l * 4 + 0] = r0;
        out[l * 4 + 1] = r1;
        out[l * 4 + 2] = r2;
        out[l * 4 + 3] = r3;
    }
}
