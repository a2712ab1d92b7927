// expect: race
// launch: --grid 4 --block 64 --arg buf:16:zero --arg buf:4:zero --arg buf:4:zero
// Thread 0 takes the ticket and writes the shared `last` flag; the other threads read it with no
// barrier in between (a shared-memory race inside every block).
extern "C" __global__ void sr_last_block_flag_nosync(float *partial, unsigned *ticket, float *total) {
    __shared__ int last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockIdx.x + 1.0f;
        __threadfence();
        last = atomicInc(ticket, gridDim.x) == gridDim.x - 1;
    }
    if (last && threadIdx.x == 32) {
        float s = 0;
        for (int b = 0; b < gridDim.x; b++) s += partial[b];
        *total = s;
    }
}
