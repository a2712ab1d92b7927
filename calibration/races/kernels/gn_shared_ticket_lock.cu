// expect: none
// launch: --grid 1 --block 128 --arg buf:4:zero
// A ticket lock in shared memory: lane 0 of each of the four warps takes a ticket with
// atomicAdd, spins until the volatile turn equals it, fences, increments a plain shared counter,
// fences and hands the turn on with a volatile store. Each critical section's release is acquired
// by the next holder, so the counter's plain accesses are ordered (race-free).
extern "C" __global__ void gn_shared_ticket_lock(int *out) {
    __shared__ int ticket;
    __shared__ volatile int turn;
    __shared__ int count;
    int t = threadIdx.x;
    if (t == 0) {
        ticket = 0;
        turn = 0;
        count = 0;
    }
    __syncthreads();
    if (t % 32 == 0) {
        int my = atomicAdd(&ticket, 1);
        while (turn != my) {
        }
        __threadfence_block();
        count = count + 1;
        __threadfence_block();
        turn = my + 1;
    }
    __syncthreads();
    if (t == 0) out[0] = count;
}
