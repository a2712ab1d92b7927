// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// A float max in shared memory by an atomicCAS loop seeded by a plain load of the variable (the
// CUDA guide's idiom: the load only gives the loop its first guess), then one atomicMax.
__device__ float cas_max(float *addr, float v) {
    int *a = (int *)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
__global__ void cas_shared(const float *in, int *out) {
    __shared__ float m;
    if (threadIdx.x == 0) m = -1e30f;
    __syncthreads();
    cas_max(&m, in[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(out, __float_as_int(m));
}
