// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// A per-thread local array indexed by data (so it lives in local memory): a 16-bin histogram of
// each thread's bytes. Local memory is private to a thread; nothing is shared.
extern "C" __global__ void gn_local_array_dynamic_index(const unsigned *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int h[16];
    for (int k = 0; k < 16; ++k) h[k] = 0;
    unsigned w = in[i];
    for (int k = 0; k < 8; ++k) h[(w >> (4 * k)) & 15]++;
    int best = 0;
    for (int k = 1; k < 16; ++k)
        if (h[k] > h[best]) best = k;
    out[i] = best;
}
