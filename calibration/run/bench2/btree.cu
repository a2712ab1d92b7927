// A B+-tree-like search: a tree of 8-key nodes built on the host, one query per thread walking from
// the root to a leaf (a data-dependent scan of each node's keys), then a range count over the leaves.
#include <cstdio>
#include <vector>
#define K 8
struct Node { int keys[K]; int child[K + 1]; int nkeys; int leaf; };
__global__ void find(const Node *nodes, int root, const int *q, int *ans, int nq)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq) return;
    int key = q[i], cur = root;
    while (!nodes[cur].leaf) {
        int c = 0;
        while (c < nodes[cur].nkeys && key >= nodes[cur].keys[c]) ++c;
        cur = nodes[cur].child[c];
    }
    int r = -1;
    for (int c = 0; c < nodes[cur].nkeys; ++c)
        if (nodes[cur].keys[c] == key) { r = nodes[cur].child[c]; break; }
    ans[i] = r;
}
__global__ void range(const Node *nodes, int first_leaf, int nleaves, const int *lo, const int *hi, int *cnt, int nq)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq) return;
    int a = lo[i], b = hi[i], c = 0;
    for (int l = first_leaf; l < first_leaf + nleaves; ++l) {
        const Node &nd = nodes[l];
        if (nd.keys[0] > b) break;
        if (nd.keys[nd.nkeys - 1] < a) continue;
        for (int k = 0; k < nd.nkeys; ++k) c += nd.keys[k] >= a && nd.keys[k] <= b;
    }
    cnt[i] = c;
}
int main()
{
    std::vector<Node> nodes;
    std::vector<int> level;
    const int nkeys = 2000;
    for (int base = 0; base < nkeys; base += 7) {
        Node nd{}; nd.leaf = 1; nd.nkeys = 0;
        for (int k = 0; k < 7 && base + k < nkeys; ++k) { nd.keys[k] = (base + k) * 3; nd.child[k] = base + k; nd.nkeys++; }
        level.push_back((int)nodes.size()); nodes.push_back(nd);
    }
    int first_leaf = 0, nleaves = (int)level.size();
    while (level.size() > 1) {
        std::vector<int> up;
        for (size_t i = 0; i < level.size(); i += K) {
            Node nd{}; nd.leaf = 0; nd.nkeys = 0;
            nd.child[0] = level[i];
            for (size_t k = 1; k < K && i + k < level.size(); ++k) { nd.keys[nd.nkeys] = nodes[level[i + k]].keys[0]; nd.child[k] = level[i + k]; nd.nkeys++; }
            // the smallest key of a subtree: follow child[0] down
            up.push_back((int)nodes.size()); nodes.push_back(nd);
        }
        for (size_t u = 0; u < up.size(); ++u) for (int k = 0; k < nodes[up[u]].nkeys; ++k) {
            int c = nodes[up[u]].child[k + 1];
            while (!nodes[c].leaf) c = nodes[c].child[0];
            nodes[up[u]].keys[k] = nodes[c].keys[0];
        }
        level = up;
    }
    int root = level[0];
    const int nq = 1500;
    int *q = new int[nq], *lo = new int[nq], *hi = new int[nq];
    unsigned s = 3;
    for (int i = 0; i < nq; ++i) { s = s * 1664525u + 1013904223u; q[i] = (s >> 8) % (nkeys * 3 + 30); lo[i] = q[i]; hi[i] = q[i] + (int)((s >> 3) % 200); }
    Node *dn; int *dq, *da, *dlo, *dhi, *dc;
    cudaMalloc(&dn, nodes.size() * sizeof(Node)); cudaMalloc(&dq, nq * 4); cudaMalloc(&da, nq * 4);
    cudaMalloc(&dlo, nq * 4); cudaMalloc(&dhi, nq * 4); cudaMalloc(&dc, nq * 4);
    cudaMemcpy(dn, nodes.data(), nodes.size() * sizeof(Node), cudaMemcpyHostToDevice);
    cudaMemcpy(dq, q, nq * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dlo, lo, nq * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dhi, hi, nq * 4, cudaMemcpyHostToDevice);
    find<<<(nq + 127) / 128, 128>>>(dn, root, dq, da, nq);
    range<<<(nq + 255) / 256, 256>>>(dn, first_leaf, nleaves, dlo, dhi, dc, nq);
    int *a = new int[nq], *c = new int[nq];
    cudaMemcpy(a, da, nq * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(c, dc, nq * 4, cudaMemcpyDeviceToHost);
    long long sa = 0, sc = 0; int found = 0;
    for (int i = 0; i < nq; ++i) { sa += a[i]; sc += c[i]; found += a[i] >= 0; }
    printf("btree nodes %zu found %d sum %lld range %lld\n", nodes.size(), found, sa, sc);
    return 0;
}
