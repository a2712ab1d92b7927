// expect: race
// launch: --grid 1 --block 64 --arg buf:4:zero
// The shared-memory form of gr_hidden_init_past_ordered_atomic, in one barrier interval: thread 0
// stores 0 to a shared counter and adds to it by atomicAdd, lane 1 adds after a __syncwarp(), and
// thread 32 adds with no barrier between it and the plain store: in another schedule its atomicAdd
// comes first and the store overwrites it. The race is the store's, not thread 0's atomicAdd's.
extern "C" __global__ void sr_hidden_init_same_interval(int *out) {
    __shared__ int count;
    int t = threadIdx.x;
    if (t == 0) {
        count = 0; // <-
        atomicAdd(&count, 1);
    }
    __syncwarp();
    if (t == 1) atomicAdd(&count, 2);
    if (t == 32) atomicAdd(&count, 4); // <-
    __syncthreads();
    if (t == 0) *out = count;
}
