// One hidden layer of a neural net, forward and backward (the backprop shape): `layer_forward`
// gives every 16x16 block 16 inputs and all 16 hidden units, multiplies in shared memory and sums
// the 16 rows by a tree reduction whose step comes from __powf, __syncthreads inside the loop;
// the host adds the blocks' partial sums, squashes, computes the output layer and the deltas;
// `adjust_weights` applies the update with momentum.
#include <cstdio>
#include <cmath>
#define HID 16
#define ETA 0.3f
#define MOMENTUM 0.3f
__global__ void layer_forward(const float *input, const float *w, float *partial, int in)
{
    __shared__ float node[HID];
    __shared__ float prod[HID][HID];
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int row = HID * by + ty + 1;               // input 0 is the bias
    if (tx == 0) node[ty] = input[row];
    __syncthreads();
    prod[ty][tx] = w[row * (HID + 1) + tx + 1] * node[ty];
    __syncthreads();
    for (int i = 1; i <= 4; ++i) {
        int step = (int)__powf(2.f, (float)i);
        if (ty % step == 0) prod[ty][tx] += prod[ty + step / 2][tx];
        __syncthreads();
    }
    if (ty == 0) partial[by * HID + tx] = prod[0][tx];
}
__global__ void adjust_weights(const float *delta, int hid, const float *ly, int in, float *w, float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int row = HID * by + ty + 1, col = tx + 1;
    int idx = row * (hid + 1) + col;
    float d = ETA * delta[col] * ly[row] + MOMENTUM * oldw[idx];
    w[idx] += d;
    oldw[idx] = d;
    __syncthreads();
    if (ty == 0 && by == 0) {
        float d0 = ETA * delta[col] + MOMENTUM * oldw[col];
        w[col] += d0;
        oldw[col] = d0;
    }
}
static float squash(float x) { return 1.f / (1.f + expf(-x)); }
int main()
{
    const int in = 16 * 512, blocks = in / HID;
    float *input = new float[in + 1], *w = new float[(in + 1) * (HID + 1)], *partial = new float[blocks * HID];
    float hidden[HID + 1], out_w[HID + 1], delta[HID + 1];
    unsigned s = 5;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 65536.f; };
    input[0] = 1.f;
    for (int i = 1; i <= in; ++i) input[i] = rnd();
    for (int i = 0; i < (in + 1) * (HID + 1); ++i) w[i] = (rnd() - 0.5f) * 0.02f;
    for (int j = 0; j <= HID; ++j) out_w[j] = rnd() - 0.5f;
    float *di, *dw, *dow, *dp, *dd;
    cudaMalloc(&di, (in + 1) * 4); cudaMalloc(&dw, (in + 1) * (HID + 1) * 4); cudaMalloc(&dow, (in + 1) * (HID + 1) * 4);
    cudaMalloc(&dp, blocks * HID * 4); cudaMalloc(&dd, (HID + 1) * 4);
    cudaMemcpy(di, input, (in + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dw, w, (in + 1) * (HID + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemset(dow, 0, (in + 1) * (HID + 1) * 4);
    dim3 blk(HID, HID), grd(1, blocks);
    const float target = 0.8f;
    float first_err = 0.f, err = 0.f;
    int bad = 0;
    for (int epoch = 0; epoch < 3; ++epoch) {
        layer_forward<<<grd, blk>>>(di, dw, dp, in);
        cudaMemcpy(partial, dp, blocks * HID * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(w, dw, (in + 1) * (HID + 1) * 4, cudaMemcpyDeviceToHost);
        // the same sums in the GPU's order (tree within a block) on the host, as a check
        hidden[0] = 1.f;
        for (int j = 1; j <= HID; ++j) {
            float sum = w[j];
            for (int b = 0; b < blocks; ++b) sum += partial[b * HID + j - 1];
            double ref = w[j];
            for (int i = 1; i <= in; ++i) ref += (double)w[i * (HID + 1) + j] * input[i];
            if (fabs(sum - ref) > 1e-3 * (1 + fabs(ref))) ++bad;
            hidden[j] = squash(sum);
        }
        float o = out_w[0];
        for (int j = 1; j <= HID; ++j) o += out_w[j] * hidden[j];
        o = squash(o);
        float od = o * (1.f - o) * (target - o);
        err = fabsf(target - o);
        if (epoch == 0) first_err = err;
        delta[0] = 0.f;
        for (int j = 1; j <= HID; ++j) delta[j] = hidden[j] * (1.f - hidden[j]) * od * out_w[j];
        for (int j = 0; j <= HID; ++j) out_w[j] += ETA * od * (j ? hidden[j] : 1.f);
        cudaMemcpy(dd, delta, (HID + 1) * 4, cudaMemcpyHostToDevice);
        adjust_weights<<<grd, blk>>>(dd, HID, di, in, dw, dow);
    }
    cudaMemcpy(w, dw, (in + 1) * (HID + 1) * 4, cudaMemcpyDeviceToHost);
    double wsum = 0;
    for (int i = 0; i < (in + 1) * (HID + 1); ++i) wsum += w[i];
    printf("backprop inputs %d hidden %d\n", in, HID);
    printf("  error %.5f -> %.5f  weight sum %.4f\n", first_err, err, wsum);
    printf("  %s (%d hidden sums off)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
