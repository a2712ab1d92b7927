// expect: none
// launch: --grid 1 --block 16,16 --dyn-smem 1024 --arg buf:1024 --arg buf:1024:zero
// sr_dyn_2d_transpose_nobarrier with the barrier.
extern "C" __global__ void gn_dyn_2d_transpose_barrier(const float *in, float *out) {
    extern __shared__ float s[];
    int x = threadIdx.x, y = threadIdx.y, w = blockDim.x;
    s[y * w + x] = in[y * w + x];
    __syncthreads();
    out[y * w + x] = s[x * w + y];
}
