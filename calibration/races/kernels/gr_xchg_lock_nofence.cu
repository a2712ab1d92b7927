// expect: global_race
// launch: --grid 4 --block 64 --arg buf:4:zero --arg buf:8:zero
// The same atomicExch spin lock without the fences: the atomics are relaxed, so the plain
// updates inside the lock are not ordered between the lock holders.
struct Acc { int sum; int n; };
extern "C" __global__ void gr_xchg_lock_nofence(int *lock, Acc *acc) {
    if ((threadIdx.x & 31) == 0) {
        while (atomicExch(lock, 1) != 0) {
        }
        acc->sum += blockIdx.x * 10 + threadIdx.x / 32;
        acc->n += 1;
        atomicExch(lock, 0);
    }
}
