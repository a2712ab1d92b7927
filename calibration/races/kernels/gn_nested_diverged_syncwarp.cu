// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 0-15 (themselves diverged into 0-7 and 8-15 for the write) run __syncwarp(0xffff) and
// read each other's element; lanes 16-31 do the same with __syncwarp(0xffff0000): each half is
// ordered by its own mask (race-free).
extern "C" __global__ void gn_nested_diverged_syncwarp(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x, v = 0;
    if (l < 16) {
        if (l < 8) {
            s[l] = l;
        } else {
            s[l] = 2 * l;
        }
        __syncwarp(0xffff);
        v = s[15 - l];
    } else {
        s[l] = 3 * l;
        __syncwarp(0xffff0000);
        v = s[47 - l];
    }
    out[l] = v;
}
