// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// Block 0 writes data, __syncthreads(), thread 0 __threadfence_system() and sets a volatile
// flag; block 1's thread 0 spins on the flag, fences, and after __syncthreads() its block reads.
__global__ void threadfence_system_flag(int *data, volatile int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t + 10;
        __syncthreads();
        if (t == 0) {
            __threadfence_system();
            *flag = 1;
        }
    } else {
        if (t == 0) {
            while (*flag == 0) {
            }
            __threadfence_system();
        }
        __syncthreads();
        out[t] = data[t];
    }
}
