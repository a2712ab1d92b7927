// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// gn_named_barrier_pingpong with the consumer signalling "empty" (bar.arrive 2) before it reads
// the slot: the producer's next fill races with that read (bar.arrive orders only what came
// before it).
extern "C" __global__ void sr_named_barrier_release_early(int *out) {
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
            asm volatile("bar.arrive 2, 64;" ::: "memory");
            acc += *(volatile int *)&buf[31 - l];
        }
    }
    out[threadIdx.x] = acc;
}
