// expect: global_race
// launch: --grid 2,2 --block 16,16 --arg buf:4096 --arg i32:32
// In-place transpose of a 32 x 32 matrix by every thread at once: (x, y) and (y, x) swap without
// any order.
extern "C" __global__ void gr_transpose_inplace(float *m, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n && x != y) {
        float t = m[y * n + x];
        m[x * n + y] = t;
    }
}
