// A thread's local array, indexed at run time (so it lives in local memory), filled in part and
// read at an index the input chooses. `unstored` reads a slot lane 0 never stored (its value on
// a GPU is whatever the memory held) and loops as often as that value says, loading from global
// memory each time; `stored` is its twin that clears the whole array first.
#include <cstdio>

__global__ void unstored(const int *in, int *out)
{
    int st[8];
    int t = threadIdx.x;
    int filled = in[t] & 7;
    for (int i = 0; i < filled; ++i)
        st[i] = in[32 + ((t + i) & 31)];
    int v = st[in[64 + t] & 7];
    int acc = 0;
    for (int j = 0; j < (v & 3); ++j)
        acc += in[96 + ((t + j) & 31)];
    out[t] = acc;
}

__global__ void stored(const int *in, int *out)
{
    int st[8];
    int t = threadIdx.x;
    for (int i = 0; i < 8; ++i)
        st[(t + i) & 7] = 0;
    int filled = in[t] & 7;
    for (int i = 0; i < filled; ++i)
        st[i] = in[32 + ((t + i) & 31)];
    int v = st[in[64 + t] & 7];
    int acc = 0;
    for (int j = 0; j < (v & 3); ++j)
        acc += in[96 + ((t + j) & 31)];
    out[t] = acc;
}

int main()
{
    int h[128];
    for (int t = 0; t < 32; ++t) {
        h[t] = t == 0 ? 0 : 7;   // lane 0 stores nothing, the others slots 0..6
        h[32 + t] = t;           // the values stored
        h[64 + t] = t == 0 ? 5 : t % 7;
        h[96 + t] = 1;
    }
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    unstored<<<1, 32>>>(in, out);
    stored<<<1, 32>>>(in, out);
    int r[32];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("stored: lane 0 %d, lane 1 %d\n", r[0], r[1]);
    return 0;
}
