// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// An array of 12-byte structs in shared memory: warp 0 fills field x of element t, warp 1 reads
// field x of element t - 32 with no barrier between (the same 4 bytes, different warps).
struct P3 {
    float x, y, z;
};
extern "C" __global__ void sr_struct_shared_field_nobarrier(const float *in, float *out) {
    __shared__ P3 s[32];
    int t = threadIdx.x;
    if (t < 32)
        s[t].x = in[t]; // <-
    else
        out[t] = s[t - 32].x; // <-
}
