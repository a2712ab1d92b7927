// expect: none
// launch: --grid 4 --block 32 --arg buf:4:zero --arg buf:4:zero
// One thread per block updates a plain counter under a spin lock (atomicCAS to take it with a
// fence after, a fence and atomicExch to give it back).
extern "C" __global__ void gn_lock_counter(int *lock, int *count) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        __threadfence();
        *count = *count + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}
