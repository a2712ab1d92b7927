// Variable-length (Huffman) encoding (the VLC/huffman shape): a canonical code in constant memory,
// each thread sums the code lengths of its symbols, a block-wide inclusive scan in shared memory
// gives its bit offset in the block, one block scans the block totals (up- and down-sweep), and a
// second pass packs each code into global words with atomicOr (codes may straddle two words).
// The host decodes the stream and compares it with the input.
#include <cstdio>
#include <cstdlib>
#define NSYM 16
#define PER 4
#define NT 256
__constant__ unsigned c_code[NSYM];
__constant__ int c_len[NSYM];

__global__ void lengths(const unsigned char *sym, int n, int *bitoff, int *blocksum)
{
    __shared__ int sh[NT];
    int tid = threadIdx.x, g = blockIdx.x * NT + tid;
    int L = 0;
    for (int k = 0; k < PER; ++k) {
        int i = g * PER + k;
        if (i < n) L += c_len[sym[i]];
    }
    sh[tid] = L;
    __syncthreads();
    for (int o = 1; o < NT; o <<= 1) {
        int v = tid >= o ? sh[tid - o] : 0;
        __syncthreads();
        sh[tid] += v;
        __syncthreads();
    }
    bitoff[g] = sh[tid] - L;
    if (tid == NT - 1) blocksum[blockIdx.x] = sh[NT - 1];
}

__global__ void scan_blocks(int *blocksum, int nb)
{
    __shared__ int a[NT];
    int tid = threadIdx.x;
    a[tid] = tid < nb ? blocksum[tid] : 0;
    __syncthreads();
    for (int d = 1; d < NT; d <<= 1) {
        int i = (tid + 1) * 2 * d - 1;
        if (i < NT) a[i] += a[i - d];
        __syncthreads();
    }
    int total = a[NT - 1];
    __syncthreads();
    if (tid == 0) a[NT - 1] = 0;
    __syncthreads();
    for (int d = NT / 2; d >= 1; d >>= 1) {
        int i = (tid + 1) * 2 * d - 1;
        if (i < NT) { int t = a[i - d]; a[i - d] = a[i]; a[i] += t; }
        __syncthreads();
    }
    if (tid < nb) blocksum[tid] = a[tid];
    if (tid == 0) blocksum[nb] = total;
}

__global__ void pack(const unsigned char *sym, int n, const int *bitoff, const int *blockoff, unsigned *out)
{
    int g = blockIdx.x * NT + threadIdx.x;
    int pos = blockoff[blockIdx.x] + bitoff[g];
    for (int k = 0; k < PER; ++k) {
        int i = g * PER + k;
        if (i >= n) return;
        int s = sym[i];
        unsigned c = c_code[s];
        int l = c_len[s];
        int w = pos >> 5, b = pos & 31;
        if (b + l <= 32) {
            atomicOr(&out[w], c << (32 - b - l));
        } else {
            int l1 = 32 - b;
            atomicOr(&out[w], c >> (l - l1));
            atomicOr(&out[w + 1], c << (32 - (l - l1)));
        }
        pos += l;
    }
}

int main()
{
    const int n = 50001;
    unsigned char *sym = new unsigned char[n];
    long long freq[NSYM] = {0};
    unsigned s = 5;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        unsigned r = s >> 16, k = 0;
        while (k < NSYM - 1 && (r & 3) != 0) { ++k; r >>= 2; if (!r) r = (s >> 3) | 1; }
        sym[i] = (unsigned char)(k ^ (i % 3 == 0 ? 1 : 0));
        ++freq[sym[i]];
    }
    // code lengths by repeated merging of the two lightest groups, then a canonical code
    int len[NSYM] = {0}, grp[NSYM];
    long long w[NSYM];
    for (int k = 0; k < NSYM; ++k) { grp[k] = k; w[k] = freq[k] + 1; }
    for (int m = 0; m < NSYM - 1; ++m) {
        int a = -1, b = -1;
        for (int k = 0; k < NSYM; ++k) {
            if (grp[k] != k) continue;
            if (a < 0 || w[k] < w[a]) { b = a; a = k; } else if (b < 0 || w[k] < w[b]) b = k;
        }
        for (int k = 0; k < NSYM; ++k) if (grp[k] == a || grp[k] == b) { ++len[k]; grp[k] = a; }
        w[a] += w[b];
        for (int k = 0; k < NSYM; ++k) if (grp[k] == b) grp[k] = a;
    }
    unsigned code[NSYM];
    unsigned c = 0;
    for (int l = 1; l <= 32; ++l) {
        for (int k = 0; k < NSYM; ++k) if (len[k] == l) code[k] = c++;
        c <<= 1;
    }
    cudaMemcpyToSymbol(c_code, code, sizeof code);
    cudaMemcpyToSymbol(c_len, len, sizeof len);
    int threads = (n + PER - 1) / PER, nb = (threads + NT - 1) / NT;
    unsigned char *dsym; int *dbit, *dblk; unsigned *dout;
    cudaMalloc(&dsym, n); cudaMalloc(&dbit, nb * NT * 4); cudaMalloc(&dblk, (nb + 1) * 4);
    long long maxbits = 0;
    for (int i = 0; i < n; ++i) maxbits += len[sym[i]];
    int words = (int)(maxbits / 32) + 2;
    cudaMalloc(&dout, words * 4);
    cudaMemset(dout, 0, words * 4);
    cudaMemcpy(dsym, sym, n, cudaMemcpyHostToDevice);
    lengths<<<nb, NT>>>(dsym, n, dbit, dblk);
    scan_blocks<<<1, NT>>>(dblk, nb);
    pack<<<nb, NT>>>(dsym, n, dbit, dblk, dout);
    unsigned *out = new unsigned[words];
    int total;
    cudaMemcpy(out, dout, words * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, dblk + nb, 4, cudaMemcpyDeviceToHost);
    // decode
    int bad = total != maxbits, pos = 0;
    for (int i = 0; i < n && !bad; ++i) {
        unsigned v = 0;
        int l = 0, k = -1;
        while (k < 0 && l < 32) {
            v = (v << 1) | ((out[pos >> 5] >> (31 - (pos & 31))) & 1);
            ++pos; ++l;
            for (int j = 0; j < NSYM; ++j) if (len[j] == l && code[j] == v) k = j;
        }
        if (k != sym[i]) bad = 1;
    }
    printf("vlc %d symbols, %d blocks: %d bits (%.3f bits/symbol)\n", n, nb, total, total / (double)n);
    printf("  lengths");
    for (int k = 0; k < NSYM; ++k) printf(" %d", len[k]);
    printf("\n  words %08x %08x %08x ... %08x\n", out[0], out[1], out[2], out[total / 32]);
    printf("  %s\n", bad ? "FAIL" : "PASS");
    return bad;
}
