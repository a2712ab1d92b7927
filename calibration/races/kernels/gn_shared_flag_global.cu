// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:4:zero
// A flag in global memory orders shared memory within the block: warp 1 writes shared data,
// __threadfence_block(), then sets a volatile global flag; warp 0's lane 0 spins on it, fences,
// and the warp reads the shared data after __syncwarp() (race-free).
extern "C" __global__ void gn_shared_flag_global(int *out, volatile int *flag) {
    __shared__ int data[32];
    int t = threadIdx.x, l = t % 32;
    if (t >= 32) {
        data[l] = l * 2 + 5;
        __syncwarp();
        if (l == 0) {
            __threadfence_block();
            *flag = 1;
        }
    } else {
        if (l == 0) {
            while (*flag == 0) {
            }
            __threadfence_block();
        }
        __syncwarp();
        out[l] = data[l];
    }
}
