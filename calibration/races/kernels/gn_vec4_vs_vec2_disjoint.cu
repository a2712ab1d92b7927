// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// sr_vec4_vs_vec2_shared's stores made disjoint: lanes 0-15 of warp 0 store int4s over s[0..63],
// warp 1's lanes int2s over s[64..127].
extern "C" __global__ void gn_vec4_vs_vec2_disjoint(int *out) {
    __shared__ __align__(16) int s[128];
    int t = threadIdx.x, l = t % 32;
    if (t < 16)
        *(int4 *)&s[4 * l] = make_int4(l, l, l, l);
    else if (t >= 32)
        *(int2 *)&s[64 + 2 * l] = make_int2(-l, -l);
    __syncthreads();
    out[t] = s[2 * t] + s[2 * t + 1];
}
