__shared__ int sh1[3];
__shared__ char own1[5];
__shared__ double sh2[2];
__shared__ int own2[2];
__device__ __noinline__ void helper(int t) { if (t < 3) sh1[t] += t; }
__global__ void k4(float* o) {
  __shared__ short loc[3];
  int t = threadIdx.x;
  if (t < 3) sh1[t] = t;
  if (t < 5) own1[t] = t;
  if (t < 2) sh2[t] = t;
  if (t < 3) loc[t] = t;
  __syncthreads();
  helper(t);
  __syncthreads();
  o[t] = sh1[t % 3] + own1[t % 5] + sh2[t % 2] + loc[t % 3];
}
__global__ void k5(float* o) {
  int t = threadIdx.x;
  if (t < 3) sh1[t] = t;
  if (t < 2) sh2[t] = t;
  if (t < 2) own2[t] = t;
  __syncthreads();
  o[t] = sh1[t % 3] + sh2[t % 2] + own2[t % 2];
}
