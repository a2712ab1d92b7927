// Exact-match search of many short queries in a reference (the MUMmer shape): the reference and
// its suffix array live in global memory; each thread takes one query and, for each start in it,
// walks the suffix array by binary search comparing characters until they differ (data-dependent
// loops and branches, early exits), then measures the match against the two neighbouring
// suffixes, keeping the longest match of at least MINLEN. Also a 4-ary trie of the reference's
// first KDEPTH characters of each suffix, walked per query start (pointer chasing). The host
// runs the same search code and compares every result.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#define MINLEN 12
#define KDEPTH 8

__host__ __device__ int cmp_suffix(const unsigned char *ref, int n, int p, const unsigned char *q, int len, int *common)
{
    int k = 0;
    while (k < len && p + k < n) {
        unsigned char a = ref[p + k], b = q[k];
        if (a != b) { *common = k; return a < b ? -1 : 1; }
        ++k;
    }
    *common = k;
    return k == len ? 0 : -1;   // the query is a prefix of the suffix, or the suffix ran out (shorter: less)
}

__host__ __device__ void search(const unsigned char *ref, int n, const int *sa, const unsigned char *q, int len,
                                int *best_len, int *best_pos, int *best_off)
{
    *best_len = 0; *best_pos = -1; *best_off = -1;
    for (int off = 0; off + MINLEN <= len; ++off) {
        if (*best_len >= len - off) break;           // nothing longer can start here
        const unsigned char *s = q + off;
        int m = len - off, lo = 0, hi = n, c;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (cmp_suffix(ref, n, sa[mid], s, m, &c) < 0) lo = mid + 1; else hi = mid;
        }
        int l0 = 0, l1 = 0;
        if (lo < n) cmp_suffix(ref, n, sa[lo], s, m, &l0);
        if (lo > 0) cmp_suffix(ref, n, sa[lo - 1], s, m, &l1);
        int l = l0 >= l1 ? l0 : l1, p = l0 >= l1 ? (lo < n ? sa[lo] : -1) : sa[lo - 1];
        if (l >= MINLEN && l > *best_len) { *best_len = l; *best_pos = p; *best_off = off; }
    }
}

__global__ void match(const unsigned char *ref, int n, const int *sa, const unsigned char *qs, const int *qoff,
                      int nq, int *res)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq) return;
    int bl, bp, bo;
    search(ref, n, sa, qs + qoff[i], qoff[i + 1] - qoff[i], &bl, &bp, &bo);
    res[3 * i] = bl; res[3 * i + 1] = bp; res[3 * i + 2] = bo;
}

// counts, per query, the starts whose first KDEPTH characters occur in the reference (trie walk)
__global__ void seeds(const int *trie, const unsigned char *qs, const int *qoff, int nq, int *hits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq) return;
    int len = qoff[i + 1] - qoff[i], h = 0;
    const unsigned char *q = qs + qoff[i];
    for (int off = 0; off + KDEPTH <= len; ++off) {
        int node = 0, d = 0;
        while (d < KDEPTH) {
            node = trie[node * 4 + q[off + d]];
            if (node < 0) break;
            ++d;
        }
        h += d == KDEPTH;
    }
    hits[i] = h;
}

int main()
{
    const int n = 6000, nq = 1500;
    unsigned char *ref = new unsigned char[n];
    unsigned s = 17;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 16; };
    for (int i = 0; i < n; ++i) ref[i] = rnd() & 3;
    int *sa = new int[n];
    for (int i = 0; i < n; ++i) sa[i] = i;
    std::sort(sa, sa + n, [&](int a, int b) {
        int la = n - a, lb = n - b, c = memcmp(ref + a, ref + b, la < lb ? la : lb);
        return c != 0 ? c < 0 : la < lb;
    });
    // the trie of every suffix's first KDEPTH characters
    int cap = 4 * n * KDEPTH + 4, nodes = 1;
    int *trie = new int[cap];
    for (int k = 0; k < cap; ++k) trie[k] = -1;
    for (int p = 0; p + KDEPTH <= n; ++p) {
        int node = 0;
        for (int d = 0; d < KDEPTH; ++d) {
            int &nx = trie[node * 4 + ref[p + d]];
            if (nx < 0) nx = nodes++;
            node = nx;
        }
    }
    int *qoff = new int[nq + 1];
    unsigned char *qs = new unsigned char[nq * 64];
    qoff[0] = 0;
    for (int i = 0; i < nq; ++i) {
        int len = 14 + rnd() % 40, o = qoff[i];
        if (i % 3 != 2) {                       // a piece of the reference with a few mutations
            int at = rnd() % (n - len);
            for (int k = 0; k < len; ++k) qs[o + k] = ref[at + k];
            for (int m = rnd() % 4; m > 0; --m) qs[o + rnd() % len] = rnd() & 3;
        } else {
            for (int k = 0; k < len; ++k) qs[o + k] = rnd() & 3;
        }
        qoff[i + 1] = o + len;
    }
    unsigned char *dref, *dq; int *dsa, *doff, *dres, *dtrie, *dhits;
    cudaMalloc(&dref, n); cudaMalloc(&dsa, n * 4); cudaMalloc(&dq, qoff[nq]); cudaMalloc(&doff, (nq + 1) * 4);
    cudaMalloc(&dres, nq * 12); cudaMalloc(&dtrie, nodes * 16); cudaMalloc(&dhits, nq * 4);
    cudaMemcpy(dref, ref, n, cudaMemcpyHostToDevice);
    cudaMemcpy(dsa, sa, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dq, qs, qoff[nq], cudaMemcpyHostToDevice);
    cudaMemcpy(doff, qoff, (nq + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dtrie, trie, nodes * 16, cudaMemcpyHostToDevice);
    match<<<(nq + 127) / 128, 128>>>(dref, n, dsa, dq, doff, nq, dres);
    seeds<<<(nq + 127) / 128, 128>>>(dtrie, dq, doff, nq, dhits);
    int *res = new int[nq * 3], *hits = new int[nq];
    cudaMemcpy(res, dres, nq * 12, cudaMemcpyDeviceToHost);
    cudaMemcpy(hits, dhits, nq * 4, cudaMemcpyDeviceToHost);
    int bad = 0, found = 0;
    long long seedsum = 0;
    for (int i = 0; i < nq; ++i) {
        int bl, bp, bo;
        search(ref, n, sa, qs + qoff[i], qoff[i + 1] - qoff[i], &bl, &bp, &bo);
        bad += bl != res[3 * i] || bp != res[3 * i + 1] || bo != res[3 * i + 2];
        found += bl > 0;
        int len = qoff[i + 1] - qoff[i], h = 0;
        for (int off = 0; off + KDEPTH <= len; ++off) {
            int node = 0, d = 0;
            while (d < KDEPTH && (node = trie[node * 4 + qs[qoff[i] + off + d]]) >= 0) ++d;
            h += d == KDEPTH;
        }
        bad += h != hits[i];
        seedsum += hits[i];
    }
    printf("mummer reference %d, %d queries, trie %d nodes: %d with a match >= %d, %lld seeds\n", n, nq, nodes, found, MINLEN, seedsum);
    for (int i = 0; i < 8; ++i) printf("  query %d (%d characters): match %d at %d (offset %d), %d seeds\n", i, qoff[i + 1] - qoff[i], res[3 * i], res[3 * i + 1], res[3 * i + 2], hits[i]);
    printf("  %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
