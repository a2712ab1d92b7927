// expect: none
// launch: --grid 4 --block 64 --arg buf:64:zero --arg buf:1024:zero
// Every thread of four blocks applies a different atomic (add, max, sub, exchange, compare-and-swap,
// or, min) to the same few words and keeps the returned value: atomics do not race with atomics.
extern "C" __global__ void gn_atomic_mix_blocks(int *w, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int r;
    switch (i % 7) {
    case 0: r = atomicAdd(&w[i % 4], 3); break;
    case 1: r = atomicMax(&w[i % 4], i); break;
    case 2: r = atomicSub(&w[i % 4], 1); break;
    case 3: r = atomicExch(&w[i % 4], i); break;
    case 4: r = atomicCAS(&w[i % 4], 0, i); break;
    case 5: r = atomicOr(&w[i % 4], 1 << (i % 31)); break;
    default: r = atomicMin(&w[i % 4], -i); break;
    }
    out[i] = r;
}
