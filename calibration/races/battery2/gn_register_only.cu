// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
// Registers only: a hash of the thread's index computed in a loop, one store to its own element.
extern "C" __global__ void gn_register_only(unsigned *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, h = i * 2654435761u;
    for (int k = 0; k < 8; ++k) h = (h ^ (h >> 13)) * 0x5bd1e995u + k;
    out[i] = h;
}
