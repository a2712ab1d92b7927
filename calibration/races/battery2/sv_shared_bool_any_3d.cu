// expect: same_value_write
// launch: --grid 1 --block 8,4,2 --report-same-value-writes --arg buf:256 --arg buf:4:zero
// In an 8x4x2 block, every thread whose element is negative sets one shared bool to true: threads
// of both warps write the same byte with the same value (a same-value write, with the flag).
extern "C" __global__ void sv_shared_bool_any_3d(const int *in, int *out) {
    __shared__ bool any;
    int i = (threadIdx.z * 4 + threadIdx.y) * 8 + threadIdx.x;
    if (i == 0) any = false;
    __syncthreads();
    if (in[i] < 0) any = true; // <-
    __syncthreads();
    if (i == 0) out[0] = any;
}
