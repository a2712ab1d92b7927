// A per-thread stack machine: bytecode in global memory, a dense `switch` over 12 opcodes (ptxas
// makes a jump table: BRX) inside a do-while that runs until HALT, a stack in a local array
// indexed by a run-time stack pointer (LDL/STL), conditional jumps whose targets come from the
// data; every thread runs one of three programs on its own input (Collatz steps, gcd by
// remainders, a digit count), so lanes leave at different steps. A second kernel classifies values
// through a sparse switch (compare chains) with fall-through cases. Checked against the host's
// interpreter.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

enum { PUSH, LOADX, LOADY, ADD, SUB, MUL, DIVI, MOD, DUP, SWAP, JZ, JMP, HALT, OVER, DROP, INC };

__host__ __device__ int run(const int *code, int pc, int x, int y, int *steps) {
  int st[16];
  int sp = 0;
  int n = 0;
  bool go = true;
  do {
    int op = code[pc++];
    ++n;
    switch (op) {
      case PUSH: st[sp++] = code[pc++]; break;
      case LOADX: st[sp++] = x; break;
      case LOADY: st[sp++] = y; break;
      case ADD: --sp; st[sp - 1] += st[sp]; break;
      case SUB: --sp; st[sp - 1] -= st[sp]; break;
      case MUL: --sp; st[sp - 1] *= st[sp]; break;
      case DIVI: --sp; st[sp - 1] /= st[sp]; break;
      case MOD: --sp; st[sp - 1] %= st[sp]; break;
      case DUP: st[sp] = st[sp - 1]; ++sp; break;
      case SWAP: { int t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
      case JZ: { int t = code[pc++]; if (st[--sp] == 0) pc = t; } break;
      case JMP: pc = code[pc]; break;
      case OVER: st[sp] = st[sp - 2]; ++sp; break;
      case DROP: --sp; break;
      case INC: st[sp - 1] += 1; break;
      default: go = false; break;  // HALT
    }
  } while (go && n < 20000);
  *steps = n;
  return sp > 0 ? st[sp - 1] : -1;
}

__global__ void vmK(const int *code, const int *starts, const int *xs, int *out, int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = xs[i];
  int p = starts[(x >> 3) % 3];
  out[i] = run(code, p, x, (x * 7) % 97 + 1, &steps[i]);
}

__device__ __host__ int classify(int v) {
  int r = 0;
  switch (v & 1023) {
    case 0: r = 100; break;
    case 7: r += 3;  // falls through
    case 64: r += 11; break;
    case 255: r = 255; break;
    case 256: case 257: case 258: r = 20; break;
    case 511: r = -1; break;
    case 1000: r = 1000; break;
    default: r = (v & 15) == 3 ? 5 : 0;
  }
  return r;
}

__global__ void classifyK(const int *xs, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = classify(xs[i] * 37);
}

int main() {
  // three programs from a small assembler: Collatz steps, gcd, the digit count of x*y
  int prog[200];
  int L = 0;
  auto emit = [&](int v) { prog[L++] = v; return L - 1; };
  int starts[3];
  // collatz
  starts[0] = L;
  emit(PUSH); emit(0); emit(LOADX);
  int loop0 = L;
  emit(DUP); emit(PUSH); emit(1); emit(SUB); emit(JZ); int fixEnd0 = emit(0);
  emit(DUP); emit(PUSH); emit(2); emit(MOD); emit(JZ); int fixEven = emit(0);
  emit(PUSH); emit(3); emit(MUL); emit(INC); emit(JMP); int fixJoin = emit(0);
  prog[fixEven] = L;
  emit(PUSH); emit(2); emit(DIVI);
  prog[fixJoin] = L;
  emit(SWAP); emit(INC); emit(SWAP); emit(JMP); emit(loop0);
  prog[fixEnd0] = L;
  emit(DROP); emit(HALT);
  // gcd(x, y): while y { t = x % y; x = y; y = t }
  starts[1] = L;
  emit(LOADX); emit(LOADY);
  int loop1 = L;
  emit(DUP); emit(JZ); int fixEnd1 = emit(0);
  emit(SWAP); emit(OVER); emit(MOD); emit(JMP); emit(loop1);
  prog[fixEnd1] = L;
  emit(DROP); emit(HALT);
  // digit count of x*y
  starts[2] = L;
  emit(PUSH); emit(0); emit(LOADX); emit(LOADY); emit(MUL);
  int loop2 = L;
  emit(DUP); emit(JZ); int fixEnd2 = emit(0);
  emit(DUP); emit(PUSH); emit(10); emit(MOD);  // [s, v, d]
  // s += d: rotate via swap/over: [s v d] -> want [s+d v]
  emit(SWAP); emit(PUSH); emit(10); emit(DIVI);  // [s d v/10]
  emit(SWAP);  // [s v/10 d]


  emit(DROP); emit(SWAP); emit(INC); emit(SWAP);  // [v/10 s+1] then back
  emit(JMP); emit(loop2);
  prog[fixEnd2] = L;
  emit(DROP); emit(HALT);
  const int N = 3000;
  int *xs = (int *)malloc(N * 4), *out = (int *)malloc(N * 4), *st = (int *)malloc(N * 4), *cl = (int *)malloc(N * 4);
  unsigned r = 3;
  for (int i = 0; i < N; ++i) { r = r * 1664525u + 1013904223u; xs[i] = 1 + (r >> 12) % 5000; }
  int *dc, *ds, *dx, *dout, *dst, *dcl;
  cudaMalloc(&dc, sizeof(prog)); cudaMalloc(&ds, sizeof(starts));
  cudaMalloc(&dx, N * 4); cudaMalloc(&dout, N * 4); cudaMalloc(&dst, N * 4); cudaMalloc(&dcl, N * 4);
  cudaMemcpy(dc, prog, sizeof(int) * L, cudaMemcpyHostToDevice);
  cudaMemcpy(ds, starts, sizeof(starts), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, xs, N * 4, cudaMemcpyHostToDevice);
  vmK<<<(N + 127) / 128, 128>>>(dc, ds, dx, dout, dst, N);
  classifyK<<<(N + 255) / 256, 256>>>(dx, dcl, N);
  cudaMemcpy(out, dout, N * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(st, dst, N * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(cl, dcl, N * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  long long cs = 0, steps = 0;
  for (int i = 0; i < N; ++i) {
    int s;
    int want = run(prog, starts[(xs[i] >> 3) % 3], xs[i], (xs[i] * 7) % 97 + 1, &s);
    if (want != out[i] || s != st[i]) ++bad;
    if (classify(xs[i] * 37) != cl[i]) ++bad;
    cs += (long long)out[i] * (i % 17 + 1) + cl[i];
    steps += st[i];
  }
  printf("bytevm: %d threads, %lld steps, checksum %lld\n", N, steps, cs);
  printf("bytevm %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
