// Indirect calls on the GPU: a table of function pointers in a `.global` initialiser selected by
// data (the same function for a whole warp, or a different one per lane), and virtual methods of
// objects the device constructs in global memory. Prints every result; the host checks them.
#include <cstdio>
#include <new>

typedef int (*op_t)(int, int);

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_xor3(int a, int b) { return (a ^ b) * 3; }

__device__ op_t op_table[4] = {op_add, op_mul, op_sub, op_xor3};

// out[i] = op_table[sel[i / 32] & 3](x[i], 7): every warp calls one function.
__global__ void fptr_uniform(const int *sel, const int *x, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  op_t f = op_table[sel[i / 32] & 3];
  out[i] = f(x[i], 7);
}

// out[i] = op_table[sel[i] & 3](x[i], i): lanes of a warp call different functions.
__global__ void fptr_divergent(const int *sel, const int *x, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  op_t f = op_table[sel[i] & 3];
  out[i] = f(x[i], i);
}

// A function address taken in code (`mov.u64 %rd, op_sub`) and called when n > 0.
__global__ void fptr_local(const int *x, int *out, int n) {
  int i = threadIdx.x;
  op_t f = n > 0 ? op_sub : op_mul;
  out[i] = f(x[i], n);
}

struct Shape {
  int k;
  __device__ virtual int area(int s) const = 0;
};
struct Square : Shape {
  __device__ Square(int k_) { k = k_; }
  __device__ int area(int s) const override { return s * s + k; }
};
struct Rect : Shape {
  int w;
  __device__ Rect(int k_, int w_) { k = k_; w = w_; }
  __device__ int area(int s) const override { return s * w - k; }
};

struct alignas(16) Slot { unsigned char bytes[32]; };

// Builds one object per thread in `slots`: a Square when kind[i] is even, else a Rect.
__global__ void make_shapes(const int *kind, Slot *slots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (kind[i] & 1)
    new (&slots[i]) Rect(i, 3);
  else
    new (&slots[i]) Square(i);
}

__device__ __noinline__ int area_of(const Shape *s, int x) { return s->area(x); }

// out[i] = the object's area(i % 5), through its virtual method.
__global__ void virt_area(const Slot *slots, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = area_of(reinterpret_cast<const Shape *>(&slots[i]), i % 5);
}

// Builds and calls in one kernel (for a single-kernel analysis).
__global__ void virt_both(const int *kind, Slot *slots, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (kind[i] & 1)
    new (&slots[i]) Rect(i, 3);
  else
    new (&slots[i]) Square(i);
  out[i] = area_of(reinterpret_cast<const Shape *>(&slots[i]), i % 5);
}

static int host_op(int s, int a, int b) {
  switch (s & 3) {
  case 0: return a + b;
  case 1: return a * b;
  case 2: return a - b;
  default: return (a ^ b) * 3;
  }
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
  const int N = 128;
  int hsel[N], hx[N], hkind[N], hout[N];
  for (int i = 0; i < N; i++) {
    hsel[i] = (i * 7 + i / 3) % 5;
    hx[i] = i * 3 - 50;
    hkind[i] = (i * 5 + 1) % 3;
  }
  int *sel, *x, *kind, *out;
  Slot *slots;
  CK(cudaMalloc(&sel, sizeof hsel));
  CK(cudaMalloc(&x, sizeof hx));
  CK(cudaMalloc(&kind, sizeof hkind));
  CK(cudaMalloc(&out, sizeof hout));
  CK(cudaMalloc(&slots, N * sizeof(Slot)));
  CK(cudaMemcpy(sel, hsel, sizeof hsel, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(kind, hkind, sizeof hkind, cudaMemcpyHostToDevice));
  int bad = 0;

  fptr_uniform<<<2, 64>>>(sel, x, out);
  CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < N; i++) {
    sum += hout[i];
    if (hout[i] != host_op(hsel[i / 32], hx[i], 7)) bad++;
  }
  printf("fptr_uniform sum %ld out[0..4] %d %d %d %d out[127] %d\n", sum, hout[0], hout[1], hout[2], hout[3], hout[127]);

  fptr_divergent<<<2, 64>>>(sel, x, out);
  CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  sum = 0;
  for (int i = 0; i < N; i++) {
    sum += hout[i];
    if (hout[i] != host_op(hsel[i], hx[i], i)) bad++;
  }
  printf("fptr_divergent sum %ld out[0..4] %d %d %d %d out[127] %d\n", sum, hout[0], hout[1], hout[2], hout[3], hout[127]);

  fptr_local<<<1, 32>>>(x, out, 5);
  CK(cudaMemcpy(hout, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  sum = 0;
  for (int i = 0; i < 32; i++) {
    sum += hout[i];
    if (hout[i] != hx[i] - 5) bad++;
  }
  printf("fptr_local sum %ld out[0] %d out[31] %d\n", sum, hout[0], hout[31]);

  make_shapes<<<2, 64>>>(kind, slots);
  virt_area<<<2, 64>>>(slots, out);
  CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  sum = 0;
  for (int i = 0; i < N; i++) {
    int s = i % 5;
    int want = (hkind[i] & 1) ? s * 3 - i : s * s + i;
    sum += hout[i];
    if (hout[i] != want) bad++;
  }
  printf("virt_area sum %ld out[0..4] %d %d %d %d out[127] %d\n", sum, hout[0], hout[1], hout[2], hout[3], hout[127]);

  CK(cudaMemset(out, 0, sizeof hout));
  virt_both<<<2, 64>>>(kind, slots, out);
  CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  sum = 0;
  for (int i = 0; i < N; i++) {
    int s = i % 5;
    int want = (hkind[i] & 1) ? s * 3 - i : s * s + i;
    sum += hout[i];
    if (hout[i] != want) bad++;
  }
  printf("virt_both sum %ld\n", sum);
  CK(cudaDeviceSynchronize());
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}
