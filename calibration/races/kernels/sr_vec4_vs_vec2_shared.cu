// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// Vector stores that overlap partially: warp 0's lane i stores an int4 over s[4i .. 4i + 3], warp
// 1's lane i stores an int2 over s[4i + 2 .. 4i + 3], with no barrier between.
extern "C" __global__ void sr_vec4_vs_vec2_shared(int *out) {
    __shared__ __align__(16) int s[128];
    int t = threadIdx.x, l = t % 32;
    if (t < 32)
        *(int4 *)&s[4 * l] = make_int4(l, l, l, l);
    else
        *(int2 *)&s[4 * l + 2] = make_int2(-l, -l);
    __syncthreads();
    out[t] = s[2 * t] + s[2 * t + 1];
}
