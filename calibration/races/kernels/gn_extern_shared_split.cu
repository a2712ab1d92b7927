// expect: none
// launch: --grid 1 --block 64 --dyn-smem 768 --arg buf:256:zero --arg buf:512:zero
// One dynamic shared buffer carved into an int array and a double array after it (sized by the
// launch): each thread writes its slots, a barrier, then reads its neighbours'.
__global__ void extern_shared_split(int *out, double *dout) {
    extern __shared__ unsigned char smem[];
    int *iv = reinterpret_cast<int *>(smem);
    double *dv = reinterpret_cast<double *>(smem + blockDim.x * sizeof(int));
    int t = threadIdx.x;
    iv[t] = t;
    dv[t] = t * 0.5;
    __syncthreads();
    out[t] = iv[(t + 1) % blockDim.x];
    dout[t] = dv[(t + 63) % blockDim.x];
}
