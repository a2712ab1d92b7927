// Needleman-Wunsch: the score matrix filled block by block along anti-diagonals; inside a block the
// 16x16 tile is computed along its anti-diagonals in shared memory (max of three moves).
#include <cstdio>
#define T 16
__global__ void nw_block(int *score, const int *ref, int n, int diag, int penalty)
{
    __shared__ int s[T + 1][T + 1];
    __shared__ int r[T][T];
    int bx = blockIdx.x, t = threadIdx.x;
    int nb = (n - 1) / T;
    int bi = bx + (diag >= nb ? diag - nb + 1 : 0);
    int bj = diag - bi;
    if (bi >= nb || bj < 0 || bj >= nb) return;
    int i0 = bi * T, j0 = bj * T;
    for (int k = 0; k < T; ++k) r[t][k] = ref[(i0 + t + 1) * n + j0 + k + 1];
    s[t + 1][0] = score[(i0 + t + 1) * n + j0];
    s[0][t + 1] = score[i0 * n + j0 + t + 1];
    if (t == 0) s[0][0] = score[i0 * n + j0];
    __syncthreads();
    for (int d = 0; d < 2 * T - 1; ++d) {
        int i = t, j = d - t;
        if (j >= 0 && j < T) {
            int a = s[i][j] + r[i][j], b = s[i][j + 1] - penalty, c = s[i + 1][j] - penalty;
            int m = a > b ? a : b;
            s[i + 1][j + 1] = m > c ? m : c;
        }
        __syncthreads();
    }
    for (int k = 0; k < T; ++k) score[(i0 + t + 1) * n + j0 + k + 1] = s[t + 1][k + 1];
}
int main()
{
    const int n = 16 * 8 + 1, penalty = 10;
    int *ref = new int[n * n], *sc = new int[n * n];
    unsigned s = 5;
    char *a = new char[n], *b = new char[n];
    for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; a[i] = (s >> 20) % 10; s = s * 1664525u + 1013904223u; b[i] = (s >> 20) % 10; }
    for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) ref[i * n + j] = a[i] == b[j] ? 5 : -((a[i] + b[j]) % 4);
    for (int i = 0; i < n * n; ++i) sc[i] = 0;
    for (int i = 0; i < n; ++i) { sc[i * n] = -i * penalty; sc[i] = -i * penalty; }
    int *dref, *dsc;
    cudaMalloc(&dref, n * n * 4); cudaMalloc(&dsc, n * n * 4);
    cudaMemcpy(dref, ref, n * n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dsc, sc, n * n * 4, cudaMemcpyHostToDevice);
    int nb = (n - 1) / T;
    for (int d = 0; d < 2 * nb - 1; ++d) {
        int cnt = d < nb ? d + 1 : 2 * nb - 1 - d;
        nw_block<<<cnt, T>>>(dsc, dref, n, d, penalty);
    }
    cudaMemcpy(sc, dsc, n * n * 4, cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int i = 0; i < n * n; ++i) sum += sc[i] * (long long)(1 + i % 7);
    printf("nw final %d checksum %lld\n", sc[n * n - 1], sum);
    return 0;
}
