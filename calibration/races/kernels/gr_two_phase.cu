// expect: global_race
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:1024:zero
// Two phases in one kernel without a grid-wide barrier: phase 2 reads what another block writes
// in phase 1.
extern "C" __global__ void gr_two_phase(float *a, float *b) {
    int n = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 0.5f;
    __threadfence();
    b[i] = a[n - 1 - i] + 1.0f;
}
