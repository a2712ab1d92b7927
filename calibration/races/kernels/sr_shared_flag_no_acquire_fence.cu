// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// The writer releases (data, __threadfence_block(), volatile flag) but the reader, having seen
// the flag with a volatile read, reads the data with no fence and no acquire operation: the read
// of the flag acquires nothing, so the data accesses race.
extern "C" __global__ void sr_shared_flag_no_acquire_fence(int *out) {
    __shared__ int data[32];
    __shared__ volatile int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[l] = l + 40;
        __syncwarp();
        if (l == 0) {
            __threadfence_block();
            flag = 1;
        }
    } else {
        if (l == 0) {
            while (flag == 0) {
            }
        }
        __syncwarp();
        out[l] = data[l];
    }
}
