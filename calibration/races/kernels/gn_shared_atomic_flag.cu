// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// An atomicExch flag at block scope: warp 1 writes the data, __threadfence_block(), then
// atomicExch(&flag, 1); warp 0's lane 0 polls with atomicAdd(&flag, 0) and fences after it seeing
// 1, then the warp reads the data after __syncwarp() (race-free: the fence before the atomic
// releases, the atomic read and the fence after it acquire).
extern "C" __global__ void gn_shared_atomic_flag(int *out) {
    __shared__ int data[32];
    __shared__ int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[l] = l + 9;
        __syncwarp();
        if (l == 0) {
            __threadfence_block();
            atomicExch(&flag, 1);
        }
    } else {
        if (l == 0) {
            while (atomicAdd(&flag, 0) == 0) {
            }
            __threadfence_block();
        }
        __syncwarp();
        out[l] = data[l];
    }
}
