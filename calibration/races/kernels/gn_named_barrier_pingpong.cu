// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// Warp-specialised producer/consumer through one shared slot, as CUTLASS's named-barrier
// pipelines do: barrier 1 "full" (the producer arrives, the consumer waits), barrier 2 "empty"
// (the consumer arrives after reading, the producer waits before refilling). Four rounds.
extern "C" __global__ void gn_named_barrier_pingpong(int *out) {
    __shared__ int buf[32];
    int l = threadIdx.x % 32;
    int acc = 0;
    for (int i = 0; i < 4; ++i) {
        if (threadIdx.x < 32) {
            buf[l] = i * 32 + l;
            asm volatile("bar.arrive 1, 64;" ::: "memory");
            asm volatile("bar.sync 2, 64;" ::: "memory");
        } else {
            asm volatile("bar.sync 1, 64;" ::: "memory");
            acc += buf[31 - l];
            asm volatile("bar.arrive 2, 64;" ::: "memory");
        }
    }
    out[threadIdx.x] = acc;
}
