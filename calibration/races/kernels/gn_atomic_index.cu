// expect: none
// launch: --grid 1 --block 64 --arg buf:4:zero --arg buf:256:zero
// Each thread takes a ticket with atomicAdd and writes the slot it names: every ticket is unique,
// so no two threads write one slot (the twin of gr_atomic_index).
extern "C" __global__ void gn_atomic_index(int *count, int *slots) {
    int i = atomicAdd(count, 1);
    slots[i] = threadIdx.x;
}
