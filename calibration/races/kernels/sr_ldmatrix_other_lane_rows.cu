// expect: race
// launch: --grid 1 --block 32 --arg buf:512 --arg buf:512:zero
// One warp: each lane writes its own 16-byte row, then the warp's ldmatrix.x4 reads every row
// (lane i names row i, but the instruction hands each lane pieces of other lanes' rows) with no
// __syncwarp() between: the lanes' writes and the other lanes' row reads are not ordered under
// independent thread scheduling.
extern "C" __global__ void sr_ldmatrix_other_lane_rows(const int *in, int *out) {
    __shared__ __align__(16) int tile[32 * 4];
    int l = threadIdx.x;
    for (int k = 0; k < 4; ++k) tile[l * 4 + k] = in[l * 4 + k];
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[((l + 1) % 32) * 4]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[l * 4 + 0] = r0;
    out[l * 4 + 1] = r1;
    out[l * 4 + 2] = r2;
    out[l * 4 + 3] = r3;
}
