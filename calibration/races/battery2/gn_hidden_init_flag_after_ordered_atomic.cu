// expect: none
// launch: --grid 1 --block 64 --arg buf:4 --arg buf:4:zero --arg buf:4:zero
// Look-alike of gr_hidden_init_past_ordered_atomic: thread 0 stores the counter, adds to it,
// fences and sets a flag; lane 1 adds after a __syncwarp(), and thread 32 adds only after it saw
// the flag (atomicAdd of 0: an acquire), so its atomicAdd is ordered after the plain store in
// every schedule.
extern "C" __global__ void gn_hidden_init_flag_after_ordered_atomic(int *count, int *flag, int *out) {
    int t = threadIdx.x;
    if (t == 0) {
        *count = 0;
        atomicAdd(count, 1);
        __threadfence();
        atomicExch(flag, 1);
    }
    __syncwarp();
    if (t == 1) atomicAdd(count, 2);
    if (t == 32) {
        while (atomicAdd(flag, 0) == 0) {
        }
        atomicAdd(count, 4);
    }
    __syncthreads();
    if (t == 0) *out = *count;
}
