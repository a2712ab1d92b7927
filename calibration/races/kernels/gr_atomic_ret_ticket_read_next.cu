// expect: global_race
// launch: --grid 4 --block 64 --arg buf:1028:zero --arg buf:4:zero --arg buf:1024:zero
// gn_atomic_ret_ticket_global, and each thread then reads the slot after its own: that slot's
// writer is the thread that took the next ticket, nothing orders its write before this read.
extern "C" __global__ void gr_atomic_ret_ticket_read_next(int *slots, unsigned *counter, int *out) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = atomicAdd(counter, 1u);
    slots[i] = id;
    out[id] = slots[i + 1];
}
