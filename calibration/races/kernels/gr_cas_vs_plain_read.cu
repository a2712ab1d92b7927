// expect: global_race
// launch: --grid 2 --block 32 --arg buf:8:zero --arg buf:256:zero
// A 64-bit atomicCAS max loop by every thread, while each block's thread 5 reads the value with a
// plain load: an atomic against a plain read of another thread.
__global__ void cas_vs_plain_read(unsigned long long *m, unsigned long long *out) {
    unsigned long long v = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long old = *(volatile unsigned long long *)m;
    while (old < v) {
        unsigned long long seen = atomicCAS(m, old, v);
        if (seen == old) break;
        old = seen;
    }
    if (threadIdx.x == 5) out[blockIdx.x] = *m;
}
