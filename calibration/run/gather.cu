// Texture gathers (tex2Dgather, PTX tld4): one channel of the 2x2 texels that bilinear filtering
// would weigh, in the order the GPU returns them, under clamp, border, wrap and mirror addressing,
// unnormalised and normalised coordinates, the four channels, float4 and normalised uchar4 texels,
// point and linear filter modes (a gather does not filter). Each sample printed with its bits.
#include <cstdio>
#include <cstring>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 6, H = 5, NC = 12;
__constant__ float2 coords[NC];

__global__ void gatherAll(cudaTextureObject_t t, float4 *out) {
    int i = threadIdx.x;  // coordinate i, channel blockIdx.x
    if (i >= NC) return;
    float2 c = coords[i];
    float4 v;
    switch (blockIdx.x) {
        case 0: v = tex2Dgather<float4>(t, c.x, c.y, 0); break;
        case 1: v = tex2Dgather<float4>(t, c.x, c.y, 1); break;
        case 2: v = tex2Dgather<float4>(t, c.x, c.y, 2); break;
        default: v = tex2Dgather<float4>(t, c.x, c.y, 3); break;
    }
    out[blockIdx.x * NC + i] = v;
}

static int run(const char *name, cudaArray_t arr, cudaTextureAddressMode mode, bool normalized,
               cudaTextureFilterMode filter, cudaTextureReadMode read, float4 *dout) {
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof(rd));
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = mode;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    gatherAll<<<4, 32>>>(t, dout);
    CHECK(cudaGetLastError());
    float4 h[4 * NC];
    CHECK(cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost));
    for (int ch = 0; ch < 4; ch++)
        for (int i = 0; i < NC; i++) {
            float4 v = h[ch * NC + i];
            unsigned b[4];
            memcpy(b, &v, 16);
            printf("%s ch%d c%d: %.9g %.9g %.9g %.9g (%08x %08x %08x %08x)\n", name, ch, i, v.x, v.y, v.z, v.w,
                   b[0], b[1], b[2], b[3]);
        }
    CHECK(cudaDestroyTextureObject(t));
    return 0;
}

int main() {
    // texel (x, y) channel c: 1000 c + 10 y + x (float4); (40 y + 7 x + 50 c) % 256 (uchar4)
    float4 hf[W * H];
    uchar4 hu[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float b = 10.0f * y + x;
            hf[y * W + x] = make_float4(b, 1000 + b, 2000 + b, 3000 + b);
            int u = 40 * y + 7 * x;
            hu[y * W + x] = make_uchar4(u % 256, (u + 50) % 256, (u + 100) % 256, (u + 150) % 256);
        }
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float4>(), cu = cudaCreateChannelDesc<uchar4>();
    cudaArray_t af, au;
    CHECK(cudaMallocArray(&af, &cf, W, H));
    CHECK(cudaMallocArray(&au, &cu, W, H));
    CHECK(cudaMemcpy2DToArray(af, 0, 0, hf, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(au, 0, 0, hu, W * sizeof(uchar4), W * sizeof(uchar4), H, cudaMemcpyHostToDevice));
    float4 *dout;
    CHECK(cudaMalloc(&dout, 4 * NC * sizeof(float4)));
    // unnormalised coordinates (texels): inside, on texel centres and edges, outside every side
    float2 pix[NC] = {{0.2f, 0.3f}, {1.5f, 1.5f}, {1.7f, 2.2f}, {2.0f, 3.0f}, {5.9f, 4.9f}, {-0.3f, 0.1f},
                      {6.4f, 5.2f}, {3.25f, -1.5f}, {0.5f, 4.75f}, {2.999f, 1.001f}, {-2.5f, 7.5f}, {4.6f, 0.6f}};
    CHECK(cudaMemcpyToSymbol(coords, pix, sizeof(pix)));
    if (run("clamp", af, cudaAddressModeClamp, false, cudaFilterModePoint, cudaReadModeElementType, dout)) return 1;
    if (run("border", af, cudaAddressModeBorder, false, cudaFilterModePoint, cudaReadModeElementType, dout)) return 1;
    if (run("clamp-linear", af, cudaAddressModeClamp, false, cudaFilterModeLinear, cudaReadModeElementType, dout)) return 1;
    if (run("u8-clamp", au, cudaAddressModeClamp, false, cudaFilterModePoint, cudaReadModeNormalizedFloat, dout)) return 1;
    // normalised coordinates: the same points divided by the size, for wrap and mirror
    float2 nrm[NC];
    for (int i = 0; i < NC; i++) nrm[i] = make_float2(pix[i].x / W, pix[i].y / H);
    CHECK(cudaMemcpyToSymbol(coords, nrm, sizeof(nrm)));
    if (run("wrap", af, cudaAddressModeWrap, true, cudaFilterModePoint, cudaReadModeElementType, dout)) return 1;
    if (run("mirror", af, cudaAddressModeMirror, true, cudaFilterModePoint, cudaReadModeElementType, dout)) return 1;
    if (run("norm-clamp", af, cudaAddressModeClamp, true, cudaFilterModePoint, cudaReadModeElementType, dout)) return 1;
    printf("gather: done\n");
    return 0;
}
