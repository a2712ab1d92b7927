// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// The twin of gn_shared_flag_fence without the fences: the volatile flag's write and read are
// strong and do not race with each other, but with no fence (and no release or acquire
// operation) they order nothing: warp 1's plain writes of data and warp 0's plain reads race.
extern "C" __global__ void sr_shared_flag_nofence(int *out) {
    __shared__ int data[32];
    __shared__ volatile int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[l] = l * 3 + 1;
        __syncwarp();
        if (l == 0) flag = 1;
    } else {
        if (l == 0) {
            while (flag == 0) {
            }
        }
        __syncwarp();
        out[l] = data[l];
    }
}
