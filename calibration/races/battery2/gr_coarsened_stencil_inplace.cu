// expect: global_race
// launch: --grid 2 --block 32 --arg buf:1028
// Thread coarsening: each thread smooths four consecutive elements in place, reading the element
// after its last one, which the next thread (or the next block's first thread) writes.
extern "C" __global__ void gr_coarsened_stencil_inplace(float *a) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        float r = a[base + k + 1]; // <-
        a[base + k] = 0.5f * (a[base + k] + r); // <-
    }
}
