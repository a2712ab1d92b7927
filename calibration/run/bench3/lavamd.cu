// Particle interactions by neighbour boxes (the lavaMD shape): space is cut into boxes of NP
// particles; a block takes one home box, loads its particles and, box by box, each neighbour's
// into shared memory, and every thread accumulates the potential and force of its home particles
// against all the neighbour's particles with expf. Boxes on the edge of space have fewer
// neighbours.
#include <cstdio>
#include <cmath>
#define NP 50
#define B 3
struct P { float v, x, y, z; };
__global__ void forces(const int *nbr, const int *nnb, const P *rv, const float *q, P *fv, float a2)
{
    __shared__ P home[NP];
    __shared__ P other[NP];
    __shared__ float oq[NP];
    int bx = blockIdx.x, tx = threadIdx.x;
    int base = bx * NP;
    for (int i = tx; i < NP; i += blockDim.x) home[i] = rv[base + i];
    __syncthreads();
    int cnt = nnb[bx];
    for (int k = 0; k <= cnt; ++k) {
        int ob = k == 0 ? bx : nbr[bx * 26 + k - 1];
        for (int i = tx; i < NP; i += blockDim.x) { other[i] = rv[ob * NP + i]; oq[i] = q[ob * NP + i]; }
        __syncthreads();
        for (int i = tx; i < NP; i += blockDim.x) {
            P h = home[i], f = fv[base + i];
            for (int j = 0; j < NP; ++j) {
                P o = other[j];
                float r2 = h.v + o.v - (h.x * o.x + h.y * o.y + h.z * o.z);
                float u2 = a2 * r2;
                float vij = expf(-u2);
                float fs = 2.f * vij;
                float dx = h.x - o.x, dy = h.y - o.y, dz = h.z - o.z;
                f.v += oq[j] * vij;
                f.x += oq[j] * fs * dx;
                f.y += oq[j] * fs * dy;
                f.z += oq[j] * fs * dz;
            }
            fv[base + i] = f;
        }
        __syncthreads();
    }
}
int main()
{
    const int boxes = B * B * B, n = boxes * NP;
    const float alpha = 0.5f, a2 = 2.f * alpha * alpha;
    int nbr[boxes * 26], nnb[boxes];
    for (int z = 0; z < B; ++z) for (int y = 0; y < B; ++y) for (int x = 0; x < B; ++x) {
        int b = (z * B + y) * B + x, c = 0;
        for (int dz = -1; dz <= 1; ++dz) for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
            if (!dx && !dy && !dz) continue;
            int X = x + dx, Y = y + dy, Z = z + dz;
            if (X < 0 || Y < 0 || Z < 0 || X >= B || Y >= B || Z >= B) continue;
            nbr[b * 26 + c++] = (Z * B + Y) * B + X;
        }
        nnb[b] = c;
        for (; c < 26; ++c) nbr[b * 26 + c] = -1;
    }
    P *rv = new P[n], *fv = new P[n];
    float *q = new float[n];
    unsigned s = 13;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) % 10 + 1) / 10.f; };
    for (int i = 0; i < n; ++i) { rv[i].v = rnd(); rv[i].x = rnd(); rv[i].y = rnd(); rv[i].z = rnd(); q[i] = rnd(); }
    int *dnbr, *dnnb; P *drv, *dfv; float *dq;
    cudaMalloc(&dnbr, sizeof nbr); cudaMalloc(&dnnb, sizeof nnb);
    cudaMalloc(&drv, n * sizeof(P)); cudaMalloc(&dfv, n * sizeof(P)); cudaMalloc(&dq, n * 4);
    cudaMemcpy(dnbr, nbr, sizeof nbr, cudaMemcpyHostToDevice);
    cudaMemcpy(dnnb, nnb, sizeof nnb, cudaMemcpyHostToDevice);
    cudaMemcpy(drv, rv, n * sizeof(P), cudaMemcpyHostToDevice);
    cudaMemcpy(dq, q, n * 4, cudaMemcpyHostToDevice);
    cudaMemset(dfv, 0, n * sizeof(P));
    forces<<<boxes, 128>>>(dnbr, dnnb, drv, dq, dfv, a2);
    cudaMemcpy(fv, dfv, n * sizeof(P), cudaMemcpyDeviceToHost);
    double err = 0, sv = 0, sx = 0;
    for (int b = 0; b < boxes; ++b)
        for (int i = 0; i < NP; ++i) {
            const P &h = rv[b * NP + i];
            double f[4] = {0, 0, 0, 0};
            for (int k = 0; k <= nnb[b]; ++k) {
                int ob = k == 0 ? b : nbr[b * 26 + k - 1];
                for (int j = 0; j < NP; ++j) {
                    const P &o = rv[ob * NP + j];
                    double r2 = h.v + o.v - (h.x * o.x + h.y * o.y + h.z * o.z);
                    double vij = exp(-a2 * r2), fs = 2 * vij, qq = q[ob * NP + j];
                    f[0] += qq * vij; f[1] += qq * fs * (h.x - o.x); f[2] += qq * fs * (h.y - o.y); f[3] += qq * fs * (h.z - o.z);
                }
            }
            const P &g = fv[b * NP + i];
            err = fmax(err, fabs(g.v - f[0]) / (1 + fabs(f[0])));
            err = fmax(err, fabs(g.x - f[1]) / (1 + fabs(f[1])));
            sv += g.v; sx += g.x;
        }
    printf("lavamd boxes %d particles %d\n", boxes, n);
    printf("  sum v %.3f  sum x %.4f  first %.5f %.5f\n", sv, sx, fv[0].v, fv[0].x);
    printf("  %s (relative error %s 1e-4)\n", err < 1e-4 ? "PASS" : "FAIL", err < 1e-4 ? "<" : ">=");
    return err >= 1e-4;
}
