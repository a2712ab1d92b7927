// Switches inside functions ptxas keeps apart (`__noinline__`, and another translation unit under
// -rdc=true): each callee's own jump table (BRX through its constant bank 2), beside a kernel
// whose own switch has a jump table too. Build: calibration/run/calls/build.sh. Each kernel's
// result is checked on the host (PASS, 0 wrong).
#include <cstdio>
#ifdef SPLIT
__device__ int step(int code, int acc, int i);
__device__ int shade(int v);
extern __device__ int (*table[2])(int);
#else
#include "switch_lib.cu"
#endif

static int step_h(int code, int acc, int i)
{
    switch (code) {
    case 0: return acc + 3;
    case 1: return acc * 5;
    case 2: return acc ^ 0x35;
    case 3: return acc - i;
    case 4: return acc >> 1;
    case 5: return (acc & 1) ? acc + 17 : acc - 9;
    case 6: return -acc;
    case 7: return acc * acc + 1;
    case 8: return acc | 0x40;
    default: return acc + 1000;
    }
}

static int shade_h(int v)
{
    int r = 0;
    for (int k = 0; k < 3; ++k) {
        switch ((v >> (4 * k)) % 11) {
        case 0: r += 1; break;
        case 1: r ^= v; break;
        case 2: r -= 7; break;
        case 3: r += v >> 3; break;
        case 4: r *= 3; break;
        case 5: r |= 0x100; break;
        case 6: r += k; break;
        case 7: r = ~r; break;
        case 8: r += v & 31; break;
        case 9: r -= v % 13; break;
        default: r += 2; break;
        }
    }
    return r;
}

// a program of 16 opcodes per thread, run through the callee's switch
__global__ void interp(const unsigned char *code, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int acc = i;
    for (int pc = 0; pc < 16; ++pc) acc = step(code[i * 16 + pc], acc, i);
    out[i] = acc;
}

// the kernel's own switch (a jump table of its own) beside the callee's
__global__ void mixed(const int *v, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = v[i], r;
    switch (x % 10) {
    case 0: r = x * 2; break;
    case 1: r = x + 11; break;
    case 2: r = x ^ 77; break;
    case 3: r = x - 4; break;
    case 4: r = x << 2; break;
    case 5: r = ~x; break;
    case 6: r = x * x; break;
    case 7: r = x & 0xff; break;
    case 8: r = x | 0x100; break;
    default: r = 0; break;
    }
    out[i] = r + shade(x);
}

// warp-uniform codes: the callee's table jumps to one place per warp
__global__ void uniform(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int w = i / 32, acc = i;
    for (int pc = 0; pc < 8; ++pc) acc = step((w + pc) % 10, acc, i);
    out[i] = acc;
}

// through a function pointer: `shade` or `twist` by the lane's value
__global__ void pointers(const int *v, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = table[(v[i] >> 3) & 1](v[i]);
}

static int twist_h(int v)
{
    switch (v % 9) {
    case 0: return v + 5;
    case 1: return v * 7;
    case 2: return v ^ 0x99;
    case 3: return v - 100;
    case 4: return v << 3;
    case 5: return v >> 2;
    case 6: return v & 0xfff;
    case 7: return ~v;
    default: return 3;
    }
}

static int check(const char *name, const int *got, const int *want, int n)
{
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += got[i] != want[i];
    printf("%s: %s (%d wrong)\n", name, wrong ? "FAIL" : "PASS", wrong);
    return wrong;
}

int main()
{
    const int n = 2048;
    unsigned char *code = new unsigned char[n * 16];
    int *v = new int[n], *out = new int[n], *want = new int[n];
    unsigned s = 29;
    for (int i = 0; i < n * 16; ++i) {
        s = s * 1664525u + 1013904223u;
        // the first 256 threads share a program per warp, the rest draw one per lane
        int t = i / 16;
        code[i] = (unsigned char)(t < 256 ? ((i % 16) * 3 + t / 32) % 10 : (s >> 16) % 10);
    }
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = (int)((s >> 8) % 100000);
    }
    unsigned char *dcode;
    int *dv, *dout;
    cudaMalloc(&dcode, n * 16);
    cudaMalloc(&dv, n * sizeof(int));
    cudaMalloc(&dout, n * sizeof(int));
    cudaMemcpy(dcode, code, n * 16, cudaMemcpyHostToDevice);
    cudaMemcpy(dv, v, n * sizeof(int), cudaMemcpyHostToDevice);
    int bad = 0;

    interp<<<n / 128, 128>>>(dcode, dout, n);
    cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        int acc = i;
        for (int pc = 0; pc < 16; ++pc) acc = step_h(code[i * 16 + pc], acc, i);
        want[i] = acc;
    }
    bad += check("interp", out, want, n);

    mixed<<<n / 128, 128>>>(dv, dout, n);
    cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        int x = v[i], r;
        switch (x % 10) {
        case 0: r = x * 2; break;
        case 1: r = x + 11; break;
        case 2: r = x ^ 77; break;
        case 3: r = x - 4; break;
        case 4: r = x << 2; break;
        case 5: r = ~x; break;
        case 6: r = x * x; break;
        case 7: r = x & 0xff; break;
        case 8: r = x | 0x100; break;
        default: r = 0; break;
        }
        want[i] = r + shade_h(x);
    }
    bad += check("mixed", out, want, n);

    uniform<<<n / 128, 128>>>(dout, n);
    cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        int w = i / 32, acc = i;
        for (int pc = 0; pc < 8; ++pc) acc = step_h((w + pc) % 10, acc, i);
        want[i] = acc;
    }
    bad += check("uniform", out, want, n);

    pointers<<<n / 128, 128>>>(dv, dout, n);
    cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) want[i] = (v[i] >> 3) & 1 ? twist_h(v[i]) : shade_h(v[i]);
    bad += check("pointers", out, want, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("error: %s\n", cudaGetErrorString(e));
    return bad != 0 || e != cudaSuccess;
}
