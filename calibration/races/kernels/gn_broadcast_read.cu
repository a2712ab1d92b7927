// expect: none
// launch: --grid 2 --block 64 --arg buf:64 --arg buf:512:zero
// Every thread reads one word nobody writes.
extern "C" __global__ void gn_broadcast_read(const int *cfg, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = cfg[0] + i;
}
