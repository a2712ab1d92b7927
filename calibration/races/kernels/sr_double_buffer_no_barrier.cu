// expect: race
// launch: --grid 1 --block 64 --arg buf:2048 --arg buf:256:zero
// gn_double_buffer_one_barrier without the barrier at the end of the loop: from the second step on
// thread t reads slot (t + 1) % 64 of the buffer thread t + 1 filled in the step before, with no
// barrier between the write and the read.
extern "C" __global__ void sr_double_buffer_no_barrier(const int *in, int *out) {
    __shared__ int buf[2][64];
    int t = threadIdx.x;
    buf[0][t] = in[t];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 8; k++) {
        if (k + 1 < 8) buf[(k + 1) & 1][t] = in[(k + 1) * 64 + t];
        acc += buf[k & 1][(t + 1) % 64];
    }
    out[t] = acc;
}
