// expect: global_race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg i32:4
// A loop writing a[(t * stride + k * 17) % 64]: with stride 4 (not coprime with 64) threads t and
// t + 16 write the same element in one iteration. gn_complex_index_perm runs stride 3.
__global__ void complex_index_collide(int *a, int stride) {
    int t = threadIdx.x;
    for (int k = 0; k < 3; ++k) {
        a[(t * stride + k * 17) % 64] += t;
        __syncthreads();
    }
}
