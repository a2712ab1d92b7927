// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Lanes exchange through global memory across __syncwarp().
extern "C" __global__ void gn_syncwarp_exchange(int *a, int *out) {
    int l = threadIdx.x;
    a[l] = l + 100;
    __syncwarp();
    out[l] = a[l ^ 1];
}
