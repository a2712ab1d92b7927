// A loop at the end of a kernel, each thread copying every 256th word of a shared tile to global
// memory: nvcc's PTX unrolls it by 4 behind two trip-count tests that return (no words, fewer than
// four left), ptxas unrolls it further with more tests of the same loop condition before loads.
// Fixture of reconcile.rs's tests, built in this folder with the CUDA wheels' tools:
//   nvcc -O2 -arch=sm_90 -lineinfo -ptx -o unrolled_tail.ptx unrolled_tail.cu
//   ptxas -arch=sm_90 -lineinfo -o unrolled_tail.cubin unrolled_tail.ptx
//   nvdisasm -g -c unrolled_tail.cubin > unrolled_tail.sass   (the cubin is not kept)
__global__ void copyTail(const int *in, int *out, int n) {
  __shared__ int tile[4096];
  for (int i = threadIdx.x; i < 4096; i += 256) tile[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += 256) out[i] = tile[i];
}
