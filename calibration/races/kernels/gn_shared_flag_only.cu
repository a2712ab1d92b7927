// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// Strong accesses only: warp 1's lane 0 sets a volatile shared flag and warp 0's lane 0 spins on
// it with volatile reads, with no barrier between; every warp 0 lane then reads the flag again
// (volatile). Two strong accesses to the same bytes never race (race-free).
extern "C" __global__ void gn_shared_flag_only(int *out) {
    __shared__ volatile int flag;
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t == 32) {
        flag = 7;
    } else if (t < 32) {
        if (t == 0) {
            while (flag == 0) {
            }
        }
        __syncwarp();
        out[t] = flag;
    }
}
