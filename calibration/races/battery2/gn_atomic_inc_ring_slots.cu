// expect: none
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:256:zero
// Slots of a ring of 64 handed out with atomicInc(&next, 63) (wrapping at 64): the 64 threads of
// the launch get 64 different slots, each written by one thread.
extern "C" __global__ void gn_atomic_inc_ring_slots(unsigned *next, int *ring) {
    unsigned slot = atomicInc(next, 63u);
    ring[slot] = blockIdx.x * 100 + threadIdx.x;
}
