// expect: race
// launch: --grid 1 --block 96 --arg buf:4:zero
// Three threads of three warps on one shared counter in one barrier interval. Thread 0 stores 0
// to it, publishes a flag (fence, atomicExch) and then adds by atomicAdd; thread 32 waits for the
// flag, adds, and publishes a second flag; thread 64 waits for the second flag and reads the
// counter. The read is ordered after thread 0's store and thread 32's atomicAdd, but not after
// thread 0's atomicAdd (it comes after thread 0's release): that atomic and the plain read race.
// Before, the cell kept thread 0's store (hidden by its own atomic) and thread 32's atomic, and
// thread 0's atomic was lost: the race was missed.
extern "C" __global__ void sr_hidden_atomic_lost_past_ordered(int *out) {
    __shared__ int count, f1, f2;
    int t = threadIdx.x;
    if (t == 0) {
        f1 = 0;
        f2 = 0;
    }
    __syncthreads();
    if (t == 0) {
        count = 0;
        __threadfence_block();
        atomicExch(&f1, 1);
        atomicAdd(&count, 2); // <-
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
        *out = count; // <-
    }
}
