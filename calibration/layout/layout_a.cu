__shared__ float gshared[5];
__global__ void k1(float* o, int n) {
  __shared__ char c[3];
  __shared__ double d[4];
  __shared__ int i;
  __shared__ short s[3];
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  if (t < 3) c[t] = t;
  if (t < 4) d[t] = t * 2.0;
  if (t == 0) i = n;
  if (t < 3) s[t] = t;
  if (t < 5) gshared[t] = t;
  dyn[t] = t;
  __syncthreads();
  o[t] = c[t % 3] + d[t % 4] + i + s[t % 3] + gshared[t % 5] + dyn[(t + 1) % blockDim.x];
}
__global__ void k2(float* o) {
  __shared__ int a;
  __shared__ float4 v[2];
  int t = threadIdx.x;
  if (t == 0) a = 3;
  if (t < 2) v[t] = make_float4(t, t, t, t);
  if (t < 5) gshared[t] = t;
  __syncthreads();
  o[t] = a + v[t % 2].x + v[t%2].w + gshared[t % 5];
}
