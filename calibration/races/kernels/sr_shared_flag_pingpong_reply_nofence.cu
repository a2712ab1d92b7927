// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// gn_shared_flag_pingpong_fence with the replying warp's fence before `rep = 1` missing: the
// reply's writes are not released, so warp 0's reads of `reply` race with them.
extern "C" __global__ void sr_shared_flag_pingpong_reply_nofence(int *out) {
    __shared__ int request[32], reply[32];
    __shared__ volatile int req, rep;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) { req = 0; rep = 0; }
    __syncthreads();
    if (t < 32) {
        request[l] = l + 1;
        __syncwarp();
        if (l == 0) { __threadfence_block(); req = 1; while (rep == 0) { } __threadfence_block(); }
        __syncwarp();
        out[l] = reply[l];
    } else {
        if (l == 0) { while (req == 0) { } __threadfence_block(); }
        __syncwarp();
        reply[l] = request[31 - l] * 2;
        __syncwarp();
        if (l == 0) rep = 1;
    }
}
