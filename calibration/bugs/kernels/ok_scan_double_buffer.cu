// CORRECT: Hillis-Steele inclusive scan of one block with two shared buffers (ping-pong).
extern "C" __global__ void ok_scan_double_buffer(float* out, const float* in, int n)
{
    __shared__ float buf[2][64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int cur = 0;
    buf[0][tid] = in[i];
    __syncthreads();
    for (int off = 1; off < 64; off <<= 1) {
        float v = buf[cur][tid];
        if (tid >= off) {
            v += buf[cur][tid - off];
        }
        buf[1 - cur][tid] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    out[i] = buf[cur][tid];
}
