// expect: none
// launch: --grid 1 --block 64 --arg buf:4:zero
// Look-alike of sr_hidden_init_same_interval: thread 0 stores the shared counter, adds to it,
// then __threadfence_block() and sets a shared flag by atomicExch; thread 32 waits for the flag
// (atomicAdd of 0: an acquire) before its atomicAdd, which is so ordered after the store in
// every schedule. The flag is cleared before a barrier.
extern "C" __global__ void gn_hidden_init_same_interval_flag(int *out) {
    __shared__ int count, flag;
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t == 0) {
        count = 0;
        atomicAdd(&count, 1);
        __threadfence_block();
        atomicExch(&flag, 1);
    }
    __syncwarp();
    if (t == 1) atomicAdd(&count, 2);
    if (t == 32) {
        while (atomicAdd(&flag, 0) == 0) {
        }
        atomicAdd(&count, 4);
    }
    __syncthreads();
    if (t == 0) *out = count;
}
