// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A rotation by one through shared memory ordered by __syncwarp() only: lanes 31 and 63 read the
// first element of the other warp (the other 62 reads are within their warp and ordered).
extern "C" __global__ void sr_syncwarp_rotate_block(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t] + 1; // <-
    __syncwarp();
    out[t] = s[(t + 1) % 64]; // <-
}
