// expect: global_race
// launch: --grid 1 --block 64 --arg buf:1040:zero --arg buf:256:zero
// Each thread stores a float4 (16 bytes) and then reads the first float of its right neighbour's
// float4, with no barrier: a 4-byte read inside another thread's 16-byte store.
__global__ void float4_neighbour(float *a, float *out) {
    int t = threadIdx.x;
    reinterpret_cast<float4 *>(a)[t] = make_float4(t, t + 1, t + 2, t + 3);
    out[t] = a[4 * t + 4];
}
