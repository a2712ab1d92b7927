// expect: race
// launch: --grid 1 --block 64 --dyn-smem 512 --arg buf:256:zero
// Two `extern __shared__` arrays of different types name the same dynamic shared memory: thread t
// writes ints[t], thread t - 1 writes floats[t] (the same bytes) with no barrier between.
__device__ void put_int(int t) {
    extern __shared__ int ints[];
    ints[t] = t;
}
__device__ void put_float(int t) {
    extern __shared__ float floats[];
    floats[t + 1] = 1.0f;
}
__global__ void extern_shared_alias(int *out) {
    extern __shared__ int ints[];
    int t = threadIdx.x;
    put_int(t);
    put_float(t);
    __syncthreads();
    out[t] = ints[t];
}
