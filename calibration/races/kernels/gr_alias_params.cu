// expect: global_race
// launch: --grid 2 --block 64 --arg buf:516:zero --arg alias:0+4
// Two pointer parameters into one buffer, the second 4 bytes (one element) past the first: the
// copy out[i] = in[i] writes the element thread i + 1 reads.
__global__ void alias_params(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}
