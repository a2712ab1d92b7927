// An unstructured-mesh Euler solver step (the cfd shape): five conserved variables per element in
// structure-of-arrays layout, four faces per element whose neighbour is an element, a wall (-1) or
// the far field (-2); `step_factor` (divisions, two sqrtf), `flux` (per face: velocities by
// division, pressure, speed of sound by sqrtf, the neighbour's the same way, boundary branches),
// `advance` (a Runge-Kutta stage, divided by the stage's count). Elements are numbered in a
// shuffled order, so neighbour loads scatter.
#include <cstdio>
#include <cmath>
#define NV 5
#define GAMMA 1.4f
#define SMOOTH 0.2f
struct F3 { float x, y, z; };
__host__ __device__ inline float pressure(float d, float e, float sq) { return (GAMMA - 1.f) * (e - 0.5f * d * sq); }
__host__ __device__ inline void fluxes(float d, F3 m, float e, F3 v, float p, F3 &fx, F3 &fy, F3 &fz, F3 &fe)
{
    fx.x = v.x * m.x + p; fx.y = v.x * m.y; fx.z = v.x * m.z;
    fy.x = fx.y; fy.y = v.y * m.y + p; fy.z = v.y * m.z;
    fz.x = fx.z; fz.y = fy.z; fz.z = v.z * m.z + p;
    float de = e + p;
    fe.x = v.x * de; fe.y = v.y * de; fe.z = v.z * de;
}
__global__ void step_factor(const float *var, const float *area, float *sf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float d = var[i];
    F3 m = {var[i + n], var[i + 2 * n], var[i + 3 * n]};
    float e = var[i + 4 * n];
    F3 v = {m.x / d, m.y / d, m.z / d};
    float sq = v.x * v.x + v.y * v.y + v.z * v.z;
    float c = sqrtf(GAMMA * pressure(d, e, sq) / d);
    sf[i] = 0.5f / (sqrtf(area[i]) * (sqrtf(sq) + c));
}
__global__ void flux(const int *nb, const float *normal, const float *var, float *fl, int n, float ffd, F3 ffm, float ffe, F3 ffp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float d = var[i];
    F3 m = {var[i + n], var[i + 2 * n], var[i + 3 * n]};
    float e = var[i + 4 * n];
    F3 v = {m.x / d, m.y / d, m.z / d};
    float sq = v.x * v.x + v.y * v.y + v.z * v.z;
    float p = pressure(d, e, sq), c = sqrtf(GAMMA * p / d);
    F3 fx, fy, fz, fe;
    fluxes(d, m, e, v, p, fx, fy, fz, fe);
    float rd = 0.f, re = 0.f;
    F3 rm = {0.f, 0.f, 0.f};
    for (int j = 0; j < 4; ++j) {
        int o = nb[i + j * n];
        F3 nr = {normal[i + (j * 3) * n], normal[i + (j * 3 + 1) * n], normal[i + (j * 3 + 2) * n]};
        float len = sqrtf(nr.x * nr.x + nr.y * nr.y + nr.z * nr.z);
        if (o >= 0) {
            float od = var[o];
            F3 om = {var[o + n], var[o + 2 * n], var[o + 3 * n]};
            float oe = var[o + 4 * n];
            F3 ov = {om.x / od, om.y / od, om.z / od};
            float osq = ov.x * ov.x + ov.y * ov.y + ov.z * ov.z;
            float op = pressure(od, oe, osq), oc = sqrtf(GAMMA * op / od);
            float f = -len * SMOOTH * 0.5f * (sqrtf(sq) + sqrtf(osq) + c + oc);
            rd += f * (d - od); re += f * (e - oe);
            rm.x += f * (m.x - om.x); rm.y += f * (m.y - om.y); rm.z += f * (m.z - om.z);
            F3 gx, gy, gz, ge;
            fluxes(od, om, oe, ov, op, gx, gy, gz, ge);
            rd += 0.5f * (nr.x * (m.x + om.x) + nr.y * (m.y + om.y) + nr.z * (m.z + om.z));
            re += 0.5f * (nr.x * (fe.x + ge.x) + nr.y * (fe.y + ge.y) + nr.z * (fe.z + ge.z));
            rm.x += 0.5f * (nr.x * (fx.x + gx.x) + nr.y * (fx.y + gx.y) + nr.z * (fx.z + gx.z));
            rm.y += 0.5f * (nr.x * (fy.x + gy.x) + nr.y * (fy.y + gy.y) + nr.z * (fy.z + gy.z));
            rm.z += 0.5f * (nr.x * (fz.x + gz.x) + nr.y * (fz.y + gz.y) + nr.z * (fz.z + gz.z));
        } else if (o == -1) {
            rm.x += nr.x * p; rm.y += nr.y * p; rm.z += nr.z * p;
        } else if (o == -2) {
            rd += 0.5f * (nr.x * (m.x + ffm.x) + nr.y * (m.y + ffm.y) + nr.z * (m.z + ffm.z));
            re += 0.5f * (nr.x * (fe.x + ffp.x) + nr.y * (fe.y + ffp.y) + nr.z * (fe.z + ffp.z));
            rm.x += 0.5f * nr.x * (fx.x + ffd); rm.y += 0.5f * nr.y * (fy.y + ffd); rm.z += 0.5f * nr.z * (fz.z + ffd);
        }
    }
    fl[i] = rd; fl[i + n] = rm.x; fl[i + 2 * n] = rm.y; fl[i + 3 * n] = rm.z; fl[i + 4 * n] = re;
}
__global__ void advance(int stage, const float *old, float *var, const float *sf, const float *fl, int n, int stages)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = sf[i] / (float)(stages + 1 - stage);
    for (int k = 0; k < NV; ++k) var[i + k * n] = old[i + k * n] + f * fl[i + k * n];
}
int main()
{
    const int W = 80, H = 100, n = W * H, iters = 2, stages = 3;
    int *perm = new int[n], *nb = new int[4 * n];
    float *normal = new float[12 * n], *area = new float[n], *var = new float[NV * n];
    for (int i = 0; i < n; ++i) perm[i] = i;
    unsigned s = 29;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
    for (int i = n - 1; i > 0; --i) { int j = rnd() % (i + 1); int t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    const float ffd = 1.4f, mach = 1.2f, ang = 0.05f;
    float ffe = 1.f / (GAMMA - 1.f) + 0.5f * ffd * mach * mach;
    F3 ffm = {ffd * mach * cosf(ang), ffd * mach * sinf(ang), 0.f};
    F3 ffp = {ffm.x / ffd * (ffe + 1.f), ffm.y / ffd * (ffe + 1.f), 0.f};
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int i = perm[y * W + x];
            int nbs[4] = {x > 0 ? perm[y * W + x - 1] : -1, x < W - 1 ? perm[y * W + x + 1] : -1,
                          y > 0 ? perm[(y - 1) * W + x] : -2, y < H - 1 ? perm[(y + 1) * W + x] : -2};
            float dir[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
            for (int j = 0; j < 4; ++j) {
                nb[i + j * n] = nbs[j];
                float l = 0.9f + (rnd() % 200) / 1000.f;
                for (int k = 0; k < 3; ++k) normal[i + (j * 3 + k) * n] = dir[j][k] * l;
            }
            area[i] = 0.5f + (rnd() % 1000) / 1000.f;
            float bump = (rnd() % 100) / 1000.f;
            var[i] = ffd + bump; var[i + n] = ffm.x; var[i + 2 * n] = ffm.y; var[i + 3 * n] = ffm.z; var[i + 4 * n] = ffe + bump;
        }
    int *dnb; float *dnr, *dar, *dvar, *dold, *dsf, *dfl;
    cudaMalloc(&dnb, 4 * n * 4); cudaMalloc(&dnr, 12 * n * 4); cudaMalloc(&dar, n * 4);
    cudaMalloc(&dvar, NV * n * 4); cudaMalloc(&dold, NV * n * 4); cudaMalloc(&dsf, n * 4); cudaMalloc(&dfl, NV * n * 4);
    cudaMemcpy(dnb, nb, 4 * n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dnr, normal, 12 * n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dar, area, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dvar, var, NV * n * 4, cudaMemcpyHostToDevice);
    int g = (n + 191) / 192, launches = 0;
    for (int it = 0; it < iters; ++it) {
        cudaMemcpy(dold, dvar, NV * n * 4, cudaMemcpyDeviceToDevice);
        step_factor<<<g, 192>>>(dvar, dar, dsf, n); ++launches;
        for (int st = 0; st < stages; ++st) {
            flux<<<g, 192>>>(dnb, dnr, dvar, dfl, n, ffd, ffm, ffe, ffp);
            advance<<<g, 192>>>(st, dold, dvar, dsf, dfl, n, stages);
            launches += 2;
        }
    }
    float *out = new float[NV * n];
    cudaMemcpy(out, dvar, NV * n * 4, cudaMemcpyDeviceToHost);
    double sd = 0, se = 0, mn = 1e30, mx = -1e30;
    bool finite = true;
    for (int i = 0; i < n; ++i) {
        sd += out[i]; se += out[i + 4 * n];
        mn = fmin(mn, out[i]); mx = fmax(mx, out[i]);
        finite &= std::isfinite(out[i]) && std::isfinite(out[i + 4 * n]);
    }
    bool ok = finite && mn > 0.5 && mx < 3.0;
    printf("cfd elements %d launches %d\n", n, launches);
    printf("  density sum %.3f min %.5f max %.5f  energy sum %.3f\n", sd, mn, mx, se);
    printf("  %s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
