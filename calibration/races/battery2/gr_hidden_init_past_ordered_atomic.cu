// expect: global_race
// launch: --grid 1 --block 64 --arg buf:4 --arg buf:4:zero
// Thread 0 stores 0 to a counter in global memory and adds to it by atomicAdd; after a
// __syncwarp() lane 1 adds to it too (ordered after the store), and thread 32 of the other warp
// adds to it with nothing ordering it after the store: in another schedule its atomicAdd comes
// before the plain store, which then overwrites it. The first atomic of another thread (lane 1)
// is ordered; the race is with the second.
extern "C" __global__ void gr_hidden_init_past_ordered_atomic(int *count, int *out) {
    int t = threadIdx.x;
    if (t == 0) {
        *count = 0; // <-
        atomicAdd(count, 1);
    }
    __syncwarp();
    if (t == 1) atomicAdd(count, 2);
    if (t == 32) atomicAdd(count, 4); // <-
    __syncthreads();
    if (t == 0) *out = *count;
}
