// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// gn_named_barrier_producer with the consumer's read before its bar.sync 1, 64.
extern "C" __global__ void sr_named_barrier_read_early(int *out) {
    __shared__ int buf[32];
    int t = threadIdx.x;
    if (t < 32) {
        buf[t] = t * t;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        int v = buf[63 - t];
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[t] = v;
    }
}
