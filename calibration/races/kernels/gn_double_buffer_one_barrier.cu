// expect: none
// launch: --grid 1 --block 64 --arg buf:2048 --arg buf:256:zero
// A double-buffered loop with one barrier per step: step k prefetches the next tile into buffer
// (k + 1) % 2 and reads buffer k % 2. The writes of step k go to the buffer last read in step
// k - 1, before that step's barrier; the reads of step k + 1 come after step k's barrier.
extern "C" __global__ void gn_double_buffer_one_barrier(const int *in, int *out) {
    __shared__ int buf[2][64];
    int t = threadIdx.x;
    buf[0][t] = in[t];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 8; k++) {
        if (k + 1 < 8) buf[(k + 1) & 1][t] = in[(k + 1) * 64 + t];
        acc += buf[k & 1][(t + 1) % 64];
        __syncthreads();
    }
    out[t] = acc;
}
