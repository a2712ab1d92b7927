// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:4:zero
// Every thread of four blocks takes a ticket from a global atomicAdd and writes its id into the
// ticket's slot of a global array: the tickets are distinct, so every slot has one writer and
// no one reads them in the launch (race-free).
extern "C" __global__ void gn_atomic_ret_ticket_global(int *slots, unsigned *counter) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = atomicAdd(counter, 1u);
    slots[i] = id;
}
