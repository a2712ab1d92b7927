// Kernels for the tensor-core-era instructions (tests/modern.rs): ldmatrix/stmatrix, cp.async, wmma and mma.sync.
extern "C" __global__ void lds(unsigned *out, const unsigned *in, int trans) {
    __shared__ __align__(16) unsigned t[256];
    unsigned l = threadIdx.x;
    for (int k = l; k < 256; k += 32) t[k] = in[k];
    __syncwarp();
    unsigned a = (unsigned)__cvta_generic_to_shared(t) + ((l * 5) & 31) * 16;
    unsigned x0, x1, x2, x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(x0),"=r"(x1),"=r"(x2),"=r"(x3) : "r"(a));
    out[l*4]=x0; out[l*4+1]=x1; out[l*4+2]=x2; out[l*4+3]=x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(x0) : "r"(a));
    out[128+l]=x0;
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(l*3), "r"(l*7) : "memory");
    __syncwarp();
    for (int k = l; k < 256; k += 32) out[160+k] = t[k];
}
extern "C" __global__ void cpa(unsigned *out, const unsigned *in) {
    __shared__ __align__(16) unsigned s[512];
    unsigned l = threadIdx.x;
    for (int k = l; k < 512; k += 32) s[k] = 0xffffffffu;
    __syncwarp();
    unsigned d = (unsigned)__cvta_generic_to_shared(s) + l * 16;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d), "l"(in + ((l * 3) & 31) * 4), "r"(l & 15) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d + 1024), "l"(in + l * 2) : "memory");
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
    __syncwarp();
    for (int k = l; k < 512; k += 32) out[k] = s[k];
}
extern "C" __global__ void mmaw(float *out, const unsigned short *a, const unsigned short *b) {
    // D = A (16x16, row) * B (16x16, col) with wmma from shared; inputs are small integers in f16
    __shared__ __align__(32) unsigned short sa[256], sb[256];
    __shared__ __align__(32) float sd[256];
    unsigned l = threadIdx.x;
    for (int k = l; k < 256; k += 32) { sa[k] = a[k]; sb[k] = b[k]; }
    __syncwarp();
    unsigned fa[8], fb[8];
    float d[8];
    asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], 16;"
        : "=r"(fa[0]),"=r"(fa[1]),"=r"(fa[2]),"=r"(fa[3]),"=r"(fa[4]),"=r"(fa[5]),"=r"(fa[6]),"=r"(fa[7]) : "r"((unsigned)__cvta_generic_to_shared(sa)));
    asm volatile("wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], 16;"
        : "=r"(fb[0]),"=r"(fb[1]),"=r"(fb[2]),"=r"(fb[3]),"=r"(fb[4]),"=r"(fb[5]),"=r"(fb[6]),"=r"(fb[7]) : "r"((unsigned)__cvta_generic_to_shared(sb)));
    float z = 0.0f;
    asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19,%20,%21,%22,%23}, {%24,%24,%24,%24,%24,%24,%24,%24};"
        : "=f"(d[0]),"=f"(d[1]),"=f"(d[2]),"=f"(d[3]),"=f"(d[4]),"=f"(d[5]),"=f"(d[6]),"=f"(d[7])
        : "r"(fa[0]),"r"(fa[1]),"r"(fa[2]),"r"(fa[3]),"r"(fa[4]),"r"(fa[5]),"r"(fa[6]),"r"(fa[7]),
          "r"(fb[0]),"r"(fb[1]),"r"(fb[2]),"r"(fb[3]),"r"(fb[4]),"r"(fb[5]),"r"(fb[6]),"r"(fb[7]), "f"(z));
    asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, 16;"
        :: "r"((unsigned)__cvta_generic_to_shared(sd)), "f"(d[0]),"f"(d[1]),"f"(d[2]),"f"(d[3]),"f"(d[4]),"f"(d[5]),"f"(d[6]),"f"(d[7]) : "memory");
    __syncwarp();
    for (int k = l; k < 256; k += 32) out[k] = sd[k];
    // mma.sync m16n8k16 on the first 8 columns of B, from registers
    unsigned g = l / 4, t = l % 4;
    unsigned ar[4], br[2];
    for (int i = 0; i < 4; i++) {
        unsigned row = g + 8 * (i % 2), col = t * 2 + 8 * (i / 2);
        ar[i] = sa[row * 16 + col] | (unsigned)sa[row * 16 + col + 1] << 16;
    }
    for (int i = 0; i < 2; i++) {
        unsigned k = t * 2 + 8 * i;
        br[i] = sb[g * 16 + k] | (unsigned)sb[g * 16 + k + 1] << 16;
    }
    float c0, c1, c2, c3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
        : "=f"(c0),"=f"(c1),"=f"(c2),"=f"(c3) : "r"(ar[0]),"r"(ar[1]),"r"(ar[2]),"r"(ar[3]),"r"(br[0]),"r"(br[1]),"f"(z));
    out[256 + l * 4] = c0; out[257 + l * 4] = c1; out[258 + l * 4] = c2; out[259 + l * 4] = c3;
}
