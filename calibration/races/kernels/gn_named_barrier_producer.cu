// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// Producer/consumer on a named barrier: warp 0 writes the buffer and arrives (bar.arrive 1, 64,
// no wait); warp 1 waits on barrier 1 (bar.sync 1, 64) and reads it.
extern "C" __global__ void gn_named_barrier_producer(int *out) {
    __shared__ int buf[32];
    int t = threadIdx.x;
    if (t < 32) {
        buf[t] = t * t;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[t] = buf[63 - t];
    }
}
