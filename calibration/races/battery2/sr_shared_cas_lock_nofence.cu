// expect: race
// launch: --grid 1 --block 128 --arg buf:4:zero
// A spin lock in shared memory taken by lane 0 of each of four warps with atomicCAS and given back
// with atomicExch, with no fence on either side: nothing releases the plain update of the
// counter to the next holder (gn_shared_cas_lock_fenced has the fences).
extern "C" __global__ void sr_shared_cas_lock_nofence(int *out) {
    __shared__ int lock, count;
    int t = threadIdx.x;
    if (t == 0) lock = count = 0;
    __syncthreads();
    if ((t & 31) == 0) {
        while (atomicCAS(&lock, 0, 1) != 0) {
        }
        count = count + 1; // <-
        atomicExch(&lock, 0);
    }
    __syncthreads();
    if (t == 0) *out = count;
}
