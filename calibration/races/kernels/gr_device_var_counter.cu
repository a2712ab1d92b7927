// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512:zero
// A `__device__` counter incremented with a plain read-modify-write by every thread: lost updates.
__device__ int counter;
__global__ void device_var_counter(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int old = counter;
    counter = old + 1;
    out[i] = old;
}
