// expect: none
// launch: --grid 1 --block 128 --arg buf:4 --arg buf:4:zero --arg buf:4:zero
// A spin lock in global memory that the kernel initialises: thread 0 stores 0 to the lock word
// (its bytes start as garbage), a barrier, then lane 0 of each warp takes the lock by atomicCAS,
// adds to a counter under it, fenced, and gives it back by atomicExch. Race-free; the barrier
// after the initialisation is needed: another warp may reach its atomicCAS before warp 0 has
// taken and given back the lock, and only the barrier orders the store before that atomicCAS.
extern "C" __global__ void gn_global_lock_init_cas(int *lock, int *count, int *out) {
    int t = threadIdx.x;
    if (t == 0) *lock = 0;
    __syncthreads();
    if ((t & 31) == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        __threadfence();
        *count = *count + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
    __syncthreads();
    if (t == 0) *out = *count;
}
