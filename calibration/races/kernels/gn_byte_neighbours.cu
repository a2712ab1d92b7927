// expect: none
// launch: --grid 2 --block 64 --arg buf:128:zero
// Each thread writes and reads its own byte of a shared and a global char array (neighbouring
// bytes of one word belong to different threads), then reads another thread's shared byte after
// a barrier: race-free at byte granularity.
extern "C" __global__ void gn_byte_neighbours(char *g) {
    __shared__ char s[64];
    int t = threadIdx.x;
    s[t] = (char)(t + 1);
    g[blockIdx.x * 64 + t] = s[t] + 1;
    __syncthreads();
    g[blockIdx.x * 64 + t] += s[63 - t];
}
