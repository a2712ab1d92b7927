// Jump tables under different lane patterns, for the BRX counting rule: each launch runs one warp
// pattern (all lanes one case; two, three, five and eight cases; half the warp idle before the
// switch; cases that share a body), over a dense switch ptxas compiles to a BRX.
#include <cstdio>
__global__ void table(const int *sel, int *out, int active)
{
    int t = threadIdx.x;
    if (t >= active) return;
    int x = sel[t], r;
    switch (x) {
    case 0: r = t * 3; break;
    case 1: r = t + 100; break;
    case 2: r = t ^ 0x55; break;
    case 3: r = t - 7; break;
    case 4: r = t << 3; break;
    case 5: r = t * t; break;
    case 6: r = ~t; break;
    case 7: r = t | 0x300; break;
    case 8: case 9: r = t & 3; break;
    default: r = -1; break;
    }
    out[t] = r;
}
int main()
{
    int h[64], o[64];
    int *d, *dout;
    cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
    long long sum = 0;
    // pattern p: lane t selects ...
    for (int p = 0; p < 9; ++p) {
        for (int t = 0; t < 64; ++t) {
            switch (p) {
            case 0: h[t] = 3; break;                 // one case
            case 1: h[t] = t % 2; break;             // two
            case 2: h[t] = t % 3; break;             // three
            case 3: h[t] = t % 5; break;             // five
            case 4: h[t] = t % 8; break;             // eight
            case 5: h[t] = (t / 8) % 4; break;       // four, in runs of 8
            case 6: h[t] = 8 + t % 2; break;         // two cases sharing one body
            case 7: h[t] = t % 12; break;            // with the default
            default: h[t] = t < 31 ? 2 : 6; break;   // one lane apart
            }
        }
        cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
        table<<<1, 64>>>(d, dout, p == 8 ? 48 : 64);
        cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
        for (int t = 0; t < 64; ++t) sum += o[t] * (t + 1);
        printf("pattern %d sum %lld\n", p, sum);
    }
    // idle lanes before the switch: half the first warp
    table<<<1, 64>>>(d, dout, 16);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    printf("done %d\n", o[3]);
    return 0;
}
