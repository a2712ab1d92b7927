// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
// The twin of gr_device_var_counter with atomicAdd on the `__device__` counter.
__device__ int counter;
__global__ void device_var_atomic(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(&counter, 1);
}
