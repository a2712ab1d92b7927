// Breadth-first search over a generated CSR graph: frontier flags, a data-dependent loop over each
// vertex's edges, a 'changed' flag the host reads after each level.
#include <cstdio>
#include <vector>
__global__ void expand(const int *rowptr, const int *col, bool *front, bool *next, bool *visited, int *cost, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && front[v]) {
        front[v] = false;
        for (int e = rowptr[v]; e < rowptr[v + 1]; ++e) {
            int u = col[e];
            if (!visited[u]) { cost[u] = cost[v] + 1; next[u] = true; }
        }
    }
}
__global__ void commit(bool *front, bool *next, bool *visited, int *changed, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && next[v]) { front[v] = true; visited[v] = true; *changed = 1; next[v] = false; }
}
int main()
{
    const int n = 3000;
    std::vector<int> rowptr(n + 1), col;
    unsigned s = 7;
    for (int v = 0; v < n; ++v) {
        rowptr[v] = (int)col.size();
        s = s * 1103515245u + 12345u;
        int deg = 1 + (s >> 16) % 6;
        if (v % 97 == 0) deg += 20;
        for (int k = 0; k < deg; ++k) { s = s * 1103515245u + 12345u; col.push_back((s >> 8) % n); }
        col.push_back((v + 1) % n);
    }
    rowptr[n] = (int)col.size();
    int m = (int)col.size();
    int *drow, *dcol, *dcost, *dchanged;
    bool *front, *next, *vis;
    cudaMalloc(&drow, (n + 1) * 4); cudaMalloc(&dcol, m * 4); cudaMalloc(&dcost, n * 4); cudaMalloc(&dchanged, 4);
    cudaMalloc(&front, n); cudaMalloc(&next, n); cudaMalloc(&vis, n);
    cudaMemcpy(drow, rowptr.data(), (n + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dcol, col.data(), m * 4, cudaMemcpyHostToDevice);
    cudaMemset(front, 0, n); cudaMemset(next, 0, n); cudaMemset(vis, 0, n);
    std::vector<int> cost(n, -1); cost[0] = 0;
    cudaMemcpy(dcost, cost.data(), n * 4, cudaMemcpyHostToDevice);
    bool one = true;
    cudaMemcpy(front, &one, 1, cudaMemcpyHostToDevice);
    cudaMemcpy(vis, &one, 1, cudaMemcpyHostToDevice);
    int levels = 0, changed;
    do {
        changed = 0;
        cudaMemcpy(dchanged, &changed, 4, cudaMemcpyHostToDevice);
        expand<<<(n + 255) / 256, 256>>>(drow, dcol, front, next, vis, dcost, n);
        commit<<<(n + 255) / 256, 256>>>(front, next, vis, dchanged, n);
        cudaMemcpy(&changed, dchanged, 4, cudaMemcpyDeviceToHost);
        ++levels;
    } while (changed && levels < 40);
    cudaMemcpy(cost.data(), dcost, n * 4, cudaMemcpyDeviceToHost);
    long long sum = 0; int reached = 0;
    for (int v = 0; v < n; ++v) if (cost[v] >= 0) { sum += cost[v]; ++reached; }
    printf("bfs levels %d reached %d sum %lld\n", levels, reached, sum);
    return 0;
}
