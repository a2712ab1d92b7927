// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// A request and a reply between two warps through two volatile shared flags, each side with
// __threadfence_block() after writing its data and after seeing the other's flag: warp 0 writes
// a request and raises `req`; warp 1's lane 0 waits for it, the warp reads the request after
// __syncwarp(), writes the reply and raises `rep`; warp 0 waits for that and reads the reply.
extern "C" __global__ void gn_shared_flag_pingpong_fence(int *out) {
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
        if (l == 0) { __threadfence_block(); rep = 1; }
    }
}
