// expect: global_race
// launch: --grid 1 --block 64 --arg buf:4:zero --arg buf:256:zero
// Each thread takes a ticket with atomicAdd and writes the slot it names; the slots wrap at 8, so
// tickets t and t+8 write one slot (different values): a write-write race through the atomic's
// return value. The twin gn_atomic_index writes slot `ticket` (no wrap).
extern "C" __global__ void gr_atomic_index(int *count, int *slots) {
    int i = atomicAdd(count, 1);
    slots[i % 8] = threadIdx.x;
}
