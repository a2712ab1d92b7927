// wmma (m16n16k16, f16 -> f32): A row-major and B column-major loaded from shared memory, C loaded
// from global memory (row-major; written there by the kernel first), D stored to shared (row-major) and to global (column-major).
// The raw fragment registers of A, B and C are written out too, which pins the fragment layout.
// Inputs are halves with exponents near 1 (no overflow), C near 1.
// Launch: grid 2, block 64 (one tile per warp). Args: d_out (4 warps x 2 x 256 floats),
// frag_out (128 threads x 24 words), in (4 x 1024 words).
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmmaTile(float *d_out, unsigned *frag_out, const unsigned *in)
{
    __shared__ __align__(32) half sa[2][256];
    __shared__ __align__(32) half sb[2][256];
    __shared__ __align__(32) float sd[2][256];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5, g = blockIdx.x * 2 + w;
    const unsigned *r = in + g * 1024;
    for (unsigned k = lane; k < 256; k += 32) {
        unsigned x = r[k], y = r[256 + k];
        sa[w][k] = __ushort_as_half((unsigned short)((x & 0x83ff) | ((12 + (x >> 16) % 7) << 10)));
        sb[w][k] = __ushort_as_half((unsigned short)((y & 0x83ff) | ((12 + (y >> 16) % 7) << 10)));
    }
    // C: floats near 1 written to the column-major half of this tile's output, read back by wmma
    float *cg = d_out + g * 512 + 256;
    for (unsigned k = lane; k < 256; k += 32) {
        unsigned z = r[512 + k];
        cg[k] = __uint_as_float((z & 0x807fffffu) | ((121 + (z >> 23) % 13) << 23));
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, sa[w], 16);
    wmma::load_matrix_sync(fb, sb[w], 16);
    wmma::load_matrix_sync(fc, cg, 16, wmma::mem_row_major);
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 8; i++) frag_out[t * 24 + i] = ((const unsigned *)fa.x)[i];
    for (int i = 0; i < 8; i++) frag_out[t * 24 + 8 + i] = ((const unsigned *)fb.x)[i];
    for (int i = 0; i < 8; i++) frag_out[t * 24 + 16 + i] = __float_as_uint(fc.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(sd[w], fc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(d_out + g * 512 + 256, fc, 16, wmma::mem_col_major);
    __syncwarp();
    for (unsigned k = lane; k < 256; k += 32) d_out[g * 512 + k] = sd[w][k];
}
