// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Block 0 writes data, fences and sets the flag with atomicExch; block 1's thread 0 polls it with
// atomicCAS (a read-modify-write at .gpu scope: it acquires), then a barrier hands it to the block.
extern "C" __global__ void gn_flag_cas_poll(int *data, int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(flag, 1);
        }
    } else {
        if (threadIdx.x == 0)
            while (atomicCAS(flag, 1, 1) != 1) {
            }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
