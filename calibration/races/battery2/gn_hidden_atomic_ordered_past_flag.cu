// expect: none
// launch: --grid 1 --block 96 --arg buf:4:zero
// Look-alike of sr_hidden_atomic_lost_past_ordered: thread 0 publishes the flag after its
// atomicAdd, so thread 32's atomicAdd and, through the second flag, thread 64's read are ordered
// after thread 0's store and atomic in every schedule.
extern "C" __global__ void gn_hidden_atomic_ordered_past_flag(int *out) {
    __shared__ int count, f1, f2;
    int t = threadIdx.x;
    if (t == 0) {
        f1 = 0;
        f2 = 0;
    }
    __syncthreads();
    if (t == 0) {
        count = 0;
        atomicAdd(&count, 2);
        __threadfence_block();
        atomicExch(&f1, 1);
    }
    if (t == 32) {
        while (atomicAdd(&f1, 0) == 0) {
        }
        atomicAdd(&count, 1);
        __threadfence_block();
        atomicExch(&f2, 1);
    }
    if (t == 64) {
        while (atomicAdd(&f2, 0) == 0) {
        }
        *out = count;
    }
}
