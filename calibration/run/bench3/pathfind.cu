// A dynamic-programming row sweep (the pathfinder shape): each launch advances `pyr` rows; a block
// keeps one row of partial costs in shared memory with a halo of `pyr` columns on each side, and
// every row step takes the minimum of the three cells above, with __syncthreads inside the loop and
// the block's valid window shrinking by one column per side per step.
#include <cstdio>
#define BS 256
__global__ void sweep(const int *wall, const int *src, int *dst, int cols, int start, int steps, int border)
{
    __shared__ int prev[BS], cur[BS];
    int tx = threadIdx.x;
    int small = BS - 2 * border;                 // columns a block computes
    int blkX = small * blockIdx.x - border;      // first column the block holds
    int xidx = blkX + tx;
    int validL = blkX < 0 ? -blkX : 0;
    int validR = blkX + BS - 1 > cols - 1 ? BS - 1 - (blkX + BS - 1 - cols + 1) : BS - 1;
    bool inside = xidx >= 0 && xidx < cols;
    if (inside) prev[tx] = src[xidx];
    __syncthreads();
    bool computed = false;
    for (int i = 0; i < steps; ++i) {
        computed = false;
        if (tx >= i + 1 && tx <= BS - i - 2 && tx >= validL && tx <= validR) {
            computed = true;
            int l = tx - 1 < validL ? validL : tx - 1;
            int r = tx + 1 > validR ? validR : tx + 1;
            int best = prev[tx];
            if (prev[l] < best) best = prev[l];
            if (prev[r] < best) best = prev[r];
            cur[tx] = best + wall[cols * (start + i) + xidx];
        }
        __syncthreads();
        if (i == steps - 1) break;
        if (computed) prev[tx] = cur[tx];
        __syncthreads();
    }
    if (computed) dst[xidx] = cur[tx];
}
int main()
{
    const int cols = 6000, rows = 101, pyr = 20;
    int *wall = new int[rows * cols];
    unsigned s = 3;
    for (int i = 0; i < rows * cols; ++i) { s = s * 1664525u + 1013904223u; wall[i] = (s >> 16) % 10; }
    int *dw, *d0, *d1;
    cudaMalloc(&dw, rows * cols * 4); cudaMalloc(&d0, cols * 4); cudaMalloc(&d1, cols * 4);
    cudaMemcpy(dw, wall, rows * cols * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d0, wall, cols * 4, cudaMemcpyHostToDevice);
    int border = pyr, small = BS - 2 * border, blocks = (cols + small - 1) / small, launches = 0;
    int *src = d0, *dst = d1;
    for (int t = 1; t < rows; t += pyr) {
        int steps = pyr < rows - t ? pyr : rows - t;
        sweep<<<blocks, BS>>>(dw + 0, src, dst, cols, t, steps, border);
        int *tmp = src; src = dst; dst = tmp; ++launches;
    }
    int *res = new int[cols];
    cudaMemcpy(res, src, cols * 4, cudaMemcpyDeviceToHost);
    int *a = new int[cols], *b = new int[cols];
    for (int j = 0; j < cols; ++j) a[j] = wall[j];
    for (int i = 1; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            int m = a[j];
            if (j > 0 && a[j - 1] < m) m = a[j - 1];
            if (j < cols - 1 && a[j + 1] < m) m = a[j + 1];
            b[j] = m + wall[i * cols + j];
        }
        int *t = a; a = b; b = t;
    }
    int bad = 0; long long sum = 0; int mn = 1 << 30;
    for (int j = 0; j < cols; ++j) { bad += res[j] != a[j]; sum += res[j]; if (res[j] < mn) mn = res[j]; }
    printf("pathfind cols %d rows %d launches %d\n", cols, rows, launches);
    printf("  min %d sum %lld first %d %d %d\n", mn, sum, res[0], res[1], res[2]);
    printf("  %s (%d columns differ)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
