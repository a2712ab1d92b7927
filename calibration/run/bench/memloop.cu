// memloop: the shape of a book's stream demo. Each thread adds its two elements N times (the loop
// keeps its loads and store: the arrays may alias), four streams of N threads, N = 2^18 / 4 by
// default: ./memloop [elements]. Prints PASSED when the result is right.
#include <cstdio>
#include <cstdlib>
__global__ void sumArrays(float *A, float *B, float *C, const int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) {
    for (int i = 0; i < N; ++i) C[idx] = A[idx] + B[idx];
  }
}
int main(int argc, char **argv) {
  int nElem = argc > 1 ? atoi(argv[1]) : 1 << 18;
  int ns = 4, iElem = nElem / ns;
  size_t bytes = nElem * sizeof(float);
  float *hA, *hB, *hC, *dA, *dB, *dC;
  cudaHostAlloc(&hA, bytes, 0); cudaHostAlloc(&hB, bytes, 0); cudaHostAlloc(&hC, bytes, 0);
  for (int i = 0; i < nElem; i++) { hA[i] = i % 7; hB[i] = i % 5; }
  cudaMalloc(&dA, bytes); cudaMalloc(&dB, bytes); cudaMalloc(&dC, bytes);
  cudaStream_t s[4];
  for (int i = 0; i < ns; i++) cudaStreamCreate(&s[i]);
  for (int i = 0; i < ns; i++) {
    int o = i * iElem;
    cudaMemcpyAsync(dA + o, hA + o, iElem * 4, cudaMemcpyHostToDevice, s[i]);
    cudaMemcpyAsync(dB + o, hB + o, iElem * 4, cudaMemcpyHostToDevice, s[i]);
    sumArrays<<<(iElem + 127) / 128, 128, 0, s[i]>>>(dA + o, dB + o, dC + o, iElem);
    cudaMemcpyAsync(hC + o, dC + o, iElem * 4, cudaMemcpyDeviceToHost, s[i]);
  }
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < nElem; i++) bad += hC[i] != hA[i] + hB[i];
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return 0;
}
