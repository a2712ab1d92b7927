// A switch over data: a tiny stack-machine interpreter (one program per thread, opcodes read from
// memory, a dense switch ptxas turns into a jump table), and a per-element classifier switch.
#include <cstdio>
__global__ void interp(const unsigned char *code, const int *len, const int *input, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned char *p = code + i * 32;
    int st[8], sp = 0, acc = input[i];
    for (int pc = 0; pc < len[i]; ++pc) {
        switch (p[pc]) {
        case 0: st[sp & 7] = acc; ++sp; break;
        case 1: --sp; acc += st[sp & 7]; break;
        case 2: acc *= 3; break;
        case 3: acc -= 7; break;
        case 4: acc ^= 0x5a; break;
        case 5: acc = acc >> 1; break;
        case 6: if (acc & 1) ++pc; break;
        case 7: acc = -acc; break;
        case 8: acc += i; break;
        default: acc += 1000; break;
        }
    }
    out[i] = acc;
}
__global__ void classify(const int *v, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = v[i], r;
    switch (x % 12) {
    case 0: r = x * 2; break;
    case 1: r = x + 11; break;
    case 2: r = x ^ 77; break;
    case 3: r = x / 3; break;
    case 4: r = x - 4; break;
    case 5: r = x << 2; break;
    case 6: r = ~x; break;
    case 7: r = x * x; break;
    case 8: r = x & 0xff; break;
    case 9: r = x | 0x100; break;
    case 10: r = x % 7; break;
    default: r = 0; break;
    }
    out[i] = r;
}
int main()
{
    const int n = 1024;
    unsigned char *code = new unsigned char[n * 32];
    int *len = new int[n], *in = new int[n], *v = new int[n];
    unsigned s = 17;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        len[i] = 8 + (s >> 20) % 24;
        in[i] = (int)((s >> 4) % 1000);
        for (int k = 0; k < 32; ++k) {
            s = s * 1664525u + 1013904223u;
            // warps that share a program (first block) and warps with one per lane
            code[i * 32 + k] = (unsigned char)(i < 128 ? (k * 5 + i / 32) % 10 : (s >> 16) % 10);
        }
        v[i] = (int)((s >> 3) % 5000);
    }
    unsigned char *dcode; int *dlen, *din, *dout, *dv, *dout2;
    cudaMalloc(&dcode, n * 32); cudaMalloc(&dlen, n * 4); cudaMalloc(&din, n * 4); cudaMalloc(&dout, n * 4);
    cudaMalloc(&dv, n * 4); cudaMalloc(&dout2, n * 4);
    cudaMemcpy(dcode, code, n * 32, cudaMemcpyHostToDevice);
    cudaMemcpy(dlen, len, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dv, v, n * 4, cudaMemcpyHostToDevice);
    interp<<<n / 128, 128>>>(dcode, dlen, din, dout, n);
    classify<<<n / 256, 256>>>(dv, dout2, n);
    int *o = new int[n], *o2 = new int[n];
    cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(o2, dout2, n * 4, cudaMemcpyDeviceToHost);
    long long a = 0, b = 0;
    for (int i = 0; i < n; ++i) { a += o[i] * (long long)(1 + i % 3); b += o2[i]; }
    printf("switch interp %lld classify %lld\n", a, b);
    return 0;
}
