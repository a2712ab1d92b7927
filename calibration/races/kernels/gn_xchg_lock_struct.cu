// expect: none
// launch: --grid 4 --block 64 --arg buf:4:zero --arg buf:8:zero
// A spin lock taken with atomicExch(lock, 1) and a fence after it, given back with a fence and
// atomicExch(lock, 0): lane 0 of every warp of every block updates a two-field struct inside it.
struct Acc { int sum; int n; };
extern "C" __global__ void gn_xchg_lock_struct(int *lock, Acc *acc) {
    if ((threadIdx.x & 31) == 0) {
        while (atomicExch(lock, 1) != 0) {
        }
        __threadfence();
        acc->sum += blockIdx.x * 10 + threadIdx.x / 32;
        acc->n += 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}
