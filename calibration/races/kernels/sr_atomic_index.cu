// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// A shared queue: each thread takes a ticket from a shared counter and writes the slot it names,
// modulo 16: tickets t and t+16 write one shared slot with different values (race).
extern "C" __global__ void sr_atomic_index(int *out) {
    __shared__ int count;
    __shared__ int slot[64];
    int t = threadIdx.x;
    if (t == 0) count = 0;
    __syncthreads();
    int i = atomicAdd(&count, 1);
    slot[i % 16] = t;
    __syncthreads();
    out[t] = slot[t % 16];
}
