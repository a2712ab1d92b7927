// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// The consumer (warp 1) writes its slot before bar.sync 1, 64; the producer (warp 0) reads it
// after its bar.arrive 1, 64. bar.arrive does not wait, so nothing orders the write before the
// read.
extern "C" __global__ void sr_named_barrier_producer_reads(int *out) {
    __shared__ int buf[64];
    int t = threadIdx.x;
    buf[t] = t;
    if (t < 32) {
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        out[t] = buf[t + 32];
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[t] = buf[t - 32];
    }
}
