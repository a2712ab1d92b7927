// expect: none
// launch: --grid 1 --block 128 --arg buf:4:zero
// Twin of sr_shared_cas_lock_nofence with __threadfence_block() after taking the lock and before
// giving it back: each holder's update is released to the next.
extern "C" __global__ void gn_shared_cas_lock_fenced(int *out) {
    __shared__ int lock, count;
    int t = threadIdx.x;
    if (t == 0) lock = count = 0;
    __syncthreads();
    if ((t & 31) == 0) {
        while (atomicCAS(&lock, 0, 1) != 0) {
        }
        __threadfence_block();
        count = count + 1;
        __threadfence_block();
        atomicExch(&lock, 0);
    }
    __syncthreads();
    if (t == 0) *out = count;
}
