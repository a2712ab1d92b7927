// Template tracking over a frame sequence (the heart-wall shape): one block per tracked point, a
// large kernel with several shared arrays (the template, the search window, the score map, the
// reduction's values and indices), normalised cross-correlation of the template at every offset of
// the search window (sums, sqrtf, a division), an argmax reduction in shared memory (ties to the
// lower offset), and the host's frame loop. Each frame is the first shifted by a known motion, so
// the host checks every tracked point against the truth.
#include <cstdio>
#include <cstdlib>
#define TW 11
#define SR 8
#define WW (TW + 2 * SR)
#define NO (2 * SR + 1)
#define NPOS (NO * NO)
#define NT 256

__global__ void grab(const float *frame, int W, const int *px, const int *py, float *tpl)
{
    int p = blockIdx.x;
    for (int t = threadIdx.x; t < TW * TW; t += blockDim.x)
        tpl[p * TW * TW + t] = frame[(py[p] - TW / 2 + t / TW) * W + px[p] - TW / 2 + t % TW];
}

__global__ void track(const float *frame, int W, int H, const float *tpl, int *px, int *py, float *score)
{
    __shared__ float T[TW * TW];
    __shared__ float S[WW * WW];
    __shared__ float sc[NPOS];
    __shared__ float sv[NT];
    __shared__ int si[NT];
    __shared__ float tst[2];
    int p = blockIdx.x, tid = threadIdx.x;
    int cx = px[p], cy = py[p];
    int x0 = cx - SR - TW / 2, y0 = cy - SR - TW / 2;
    for (int k = tid; k < TW * TW; k += NT) T[k] = tpl[p * TW * TW + k];
    for (int k = tid; k < WW * WW; k += NT) {
        int yy = min(max(y0 + k / WW, 0), H - 1), xx = min(max(x0 + k % WW, 0), W - 1);
        S[k] = frame[yy * W + xx];
    }
    __syncthreads();
    if (tid == 0) {
        float m = 0.f, q = 0.f;
        for (int k = 0; k < TW * TW; ++k) m += T[k];
        m /= (float)(TW * TW);
        for (int k = 0; k < TW * TW; ++k) q += (T[k] - m) * (T[k] - m);
        tst[0] = m;
        tst[1] = sqrtf(q);
    }
    __syncthreads();
    for (int q = tid; q < NPOS; q += NT) {
        int oy = q / NO, ox = q % NO;
        float sx = 0.f, sxx = 0.f, sxt = 0.f;
        for (int r = 0; r < TW; ++r)
            for (int c = 0; c < TW; ++c) {
                float v = S[(oy + r) * WW + ox + c], t = T[r * TW + c];
                sx += v; sxx += v * v; sxt += v * t;
            }
        const float n = TW * TW;
        float mx = sx / n;
        float var = sxx - n * mx * mx;
        float num = sxt - n * mx * tst[0];
        sc[q] = num / (sqrtf(fmaxf(var, 1e-6f)) * tst[1]);
    }
    __syncthreads();
    float best = -1e30f;
    int bi = 0x7fffffff;
    for (int q = tid; q < NPOS; q += NT)
        if (sc[q] > best) { best = sc[q]; bi = q; }
    sv[tid] = best; si[tid] = bi;
    __syncthreads();
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float o = sv[tid + s];
            int oi = si[tid + s];
            if (o > sv[tid] || (o == sv[tid] && oi < si[tid])) { sv[tid] = o; si[tid] = oi; }
        }
        __syncthreads();
    }
    if (tid == 0) {
        px[p] = cx + si[0] % NO - SR;
        py[p] = cy + si[0] / NO - SR;
        score[p] = sv[0];
    }
}

int main()
{
    const int W = 160, H = 160, P = 16, F = 7;
    float *base = new float[W * H], *frame = new float[W * H];
    int *noise = new int[W * H];
    unsigned s = 99;
    for (int i = 0; i < W * H; ++i) { s = s * 1664525u + 1013904223u; noise[i] = (s >> 20) & 1023; }
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int a = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) a += noise[((y + dy + H) % H) * W + (x + dx + W) % W];
            base[y * W + x] = a / 9216.f;
        }
    int px[P], py[P], tx[P], ty[P];
    for (int p = 0; p < P; ++p) { px[p] = tx[p] = 30 + (p % 4) * 30; py[p] = ty[p] = 30 + (p / 4) * 25; }
    float *dframe, *dtpl, *dscore; int *dpx, *dpy;
    cudaMalloc(&dframe, W * H * 4); cudaMalloc(&dtpl, P * TW * TW * 4); cudaMalloc(&dscore, P * 4);
    cudaMalloc(&dpx, P * 4); cudaMalloc(&dpy, P * 4);
    cudaMemcpy(dframe, base, W * H * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dpx, px, P * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dpy, py, P * 4, cudaMemcpyHostToDevice);
    grab<<<P, 128>>>(dframe, W, dpx, dpy, dtpl);
    int bad = 0;
    float sc[P];
    printf("hwall %d points, %d frames\n", P, F - 1);
    for (int f = 1; f < F; ++f) {
        int mx = 2 * f, my = f - (f > 3 ? 2 * (f - 3) : 0);  // the motion so far
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) frame[y * W + x] = base[((y - my + H) % H) * W + (x - mx + W) % W];
        cudaMemcpy(dframe, frame, W * H * 4, cudaMemcpyHostToDevice);
        track<<<P, NT>>>(dframe, W, H, dtpl, dpx, dpy, dscore);
        cudaMemcpy(px, dpx, P * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(py, dpy, P * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(sc, dscore, P * 4, cudaMemcpyDeviceToHost);
        for (int p = 0; p < P; ++p) bad += px[p] != tx[p] + mx || py[p] != ty[p] + my;
        printf("  frame %d: point 0 (%d,%d) %.4f  point 9 (%d,%d) %.4f\n", f, px[0], py[0], sc[0], px[9], py[9], sc[9]);
    }
    printf("  %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
