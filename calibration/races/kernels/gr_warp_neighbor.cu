// expect: global_race
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Lanes of one warp exchange through global memory without __syncwarp(): lanes are not ordered.
extern "C" __global__ void gr_warp_neighbor(int *a, int *out) {
    int l = threadIdx.x;
    a[l] = l + 100;
    out[l] = a[l ^ 1];
}
