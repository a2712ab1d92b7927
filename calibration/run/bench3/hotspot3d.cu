// A 3-D heat stencil (the hotspot3D shape): a 2-D grid of threads covers x and y, and each thread
// walks z, carrying the cells below, at and above it in registers; the edges clamp (the first and
// last plane, and x and y by index arithmetic). Ping-pong between two arrays for `iters` steps.
#include <cstdio>
#include <cmath>
__global__ void step(const float *p, const float *tin, float *tout, int nx, int ny, int nz,
                     float ce, float cw, float cn, float cs, float ct, float cb, float cc, float dt, float amb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int c = i + j * nx, xy = nx * ny;
    int W = i == 0 ? c : c - 1;
    int E = i == nx - 1 ? c : c + 1;
    int N = j == 0 ? c : c - nx;
    int S = j == ny - 1 ? c : c + nx;
    float below = tin[c], here = below, above = tin[c + xy];
    tout[c] = cc * here + cw * tin[W] + ce * tin[E] + cs * tin[S] + cn * tin[N] + cb * below + ct * above
              + dt * p[c] + ct * amb;
    c += xy; W += xy; E += xy; N += xy; S += xy;
    for (int k = 1; k < nz - 1; ++k) {
        below = here; here = above; above = tin[c + xy];
        tout[c] = cc * here + cw * tin[W] + ce * tin[E] + cs * tin[S] + cn * tin[N] + cb * below + ct * above
                  + dt * p[c] + ct * amb;
        c += xy; W += xy; E += xy; N += xy; S += xy;
    }
    below = here; here = above;
    tout[c] = cc * here + cw * tin[W] + ce * tin[E] + cs * tin[S] + cn * tin[N] + cb * below + ct * here
              + dt * p[c] + ct * amb;
}
int main()
{
    const int nx = 64, ny = 64, nz = 8, iters = 5, n = nx * ny * nz;
    float *p = new float[n], *t = new float[n], *ref = new float[n], *tmp = new float[n];
    unsigned s = 21;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u; p[i] = ((s >> 9) % 1000) / 1000.f;
        s = s * 1664525u + 1013904223u; t[i] = 320.f + ((s >> 9) % 1000) / 100.f;
    }
    const float dt = 0.001f, amb = 80.f;
    const float ce = 0.03f, cw = 0.03f, cn = 0.04f, cs = 0.04f, ct = 0.02f, cb = 0.02f;
    const float cc = 1.f - (ce + cw + cn + cs + ct + cb + ct);
    float *dp, *d0, *d1;
    cudaMalloc(&dp, n * 4); cudaMalloc(&d0, n * 4); cudaMalloc(&d1, n * 4);
    cudaMemcpy(dp, p, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d0, t, n * 4, cudaMemcpyHostToDevice);
    dim3 blk(64, 4), grd(nx / 64, ny / 4);
    for (int it = 0; it < iters; ++it) {
        step<<<grd, blk>>>(dp, d0, d1, nx, ny, nz, ce, cw, cn, cs, ct, cb, cc, dt, amb);
        float *x = d0; d0 = d1; d1 = x;
    }
    float *out = new float[n];
    cudaMemcpy(out, d0, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) ref[i] = t[i];
    for (int it = 0; it < iters; ++it) {
        for (int z = 0; z < nz; ++z)
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x) {
                    int c = x + y * nx + z * nx * ny;
                    float w = ref[x == 0 ? c : c - 1], e = ref[x == nx - 1 ? c : c + 1];
                    float no = ref[y == 0 ? c : c - nx], so = ref[y == ny - 1 ? c : c + nx];
                    float b = ref[z == 0 ? c : c - nx * ny], a = ref[z == nz - 1 ? c : c + nx * ny];
                    tmp[c] = cc * ref[c] + cw * w + ce * e + cs * so + cn * no + cb * b + ct * a + dt * p[c] + ct * amb;
                }
        float *x = ref; ref = tmp; tmp = x;
    }
    double err = 0, sum = 0;
    for (int i = 0; i < n; ++i) { err = fmax(err, fabs(out[i] - ref[i])); sum += out[i]; }
    printf("hotspot3d %dx%dx%d iterations %d\n", nx, ny, nz, iters);
    printf("  mean %.4f  corner %.4f  centre %.4f\n", sum / n, out[0], out[nx / 2 + ny / 2 * nx + nz / 2 * nx * ny]);
    printf("  %s (max error %s 1e-3)\n", err < 1e-3 ? "PASS" : "FAIL", err < 1e-3 ? "<" : ">=");
    return err >= 1e-3;
}
