// expect: race
// launch: --grid 1 --block 96 --arg buf:4:zero --arg i32:42
// A shared flag between the warps of one block where the fence is another thread's: thread 0
// writes the shared data, thread 32 (no barrier between) runs __threadfence_block() and sets the
// flag, thread 64 waits for the flag and reads the data. The fence orders only thread 32's own
// accesses: the read is not ordered after thread 0's write.
extern "C" __global__ void sr_fence_by_other_thread(int *out, int v) {
    __shared__ int data, flag;
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t == 0) data = v; // <-
    if (t == 32) {
        __threadfence_block();
        atomicExch(&flag, 1);
    }
    if (t == 64) {
        while (atomicAdd(&flag, 0) == 0) {
        }
        *out = data; // <-
    }
}
