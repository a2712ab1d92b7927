// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// A shared ring updated 12 times with a barrier after each write, but the read of the neighbour
// comes before the write with no barrier between them: from the second iteration on, thread
// t reads slot (t + 1) % 64 while thread t + 1 writes it (the first iteration reads the
// initial values, written before a barrier).
extern "C" __global__ void sr_loop_late_wrap(int *out) {
    __shared__ int ring[64];
    int t = threadIdx.x;
    ring[t] = t;
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 12; k++) {
        int v = ring[(t + 1) % 64];
        ring[t] = v + k;
        __syncthreads();
        acc += v;
    }
    out[t] = acc;
}
