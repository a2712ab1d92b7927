// A block-cipher-shaped kernel written for this project (bit manipulation in the style of the
// book's chapter 7 exercises): 64-bit blocks as four 16-bit words, 8 rounds of multiplication
// modulo 65537 (0 standing for 65536), additions modulo 65536, xors and 32-bit rotations, round
// keys from a 128-bit key rotated by 25 bits per 8 words. The host runs the same rounds and the
// inverse; the kernel encrypts, then decrypts with the inverted keys. Built -O2 -lineinfo ("Test
// PASSED").
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define ROUNDS 8
#define NKEYS (6 * ROUNDS + 4)

__host__ __device__ inline uint16_t mulMod(uint16_t a, uint16_t b) {
    if (a == 0) return (uint16_t)(1 - b);  // 65536 * b = -b (mod 65537)
    if (b == 0) return (uint16_t)(1 - a);
    uint32_t p = (uint32_t)a * b;
    uint16_t lo = (uint16_t)p, hi = (uint16_t)(p >> 16);
    return (uint16_t)(lo - hi + (lo < hi));
}

__host__ __device__ inline uint32_t rotl32(uint32_t v, int s) { return (v << s) | (v >> (32 - s)); }

__host__ __device__ inline uint2 cryptBlock(uint2 in, const uint16_t *k) {
    uint16_t a = in.x & 0xffff, b = in.x >> 16, c = in.y & 0xffff, d = in.y >> 16;
    for (int r = 0; r < ROUNDS; r++, k += 6) {
        a = mulMod(a, k[0]);
        b = (uint16_t)(b + k[1]);
        c = (uint16_t)(c + k[2]);
        d = mulMod(d, k[3]);
        uint16_t e = a ^ c, f = b ^ d;
        e = mulMod(e, k[4]);
        f = (uint16_t)(f + e);
        f = mulMod(f, k[5]);
        e = (uint16_t)(e + f);
        a ^= f; d ^= e;
        uint16_t t = b ^ e;
        b = c ^ f;
        c = t;
    }
    uint16_t oa = mulMod(a, k[0]), ob = (uint16_t)(c + k[1]), oc = (uint16_t)(b + k[2]), od = mulMod(d, k[3]);
    uint2 out;
    out.x = (uint32_t)oa | ((uint32_t)ob << 16);
    out.y = (uint32_t)oc | ((uint32_t)od << 16);
    // a final whitening rotation the inverse undoes first
    out.x = rotl32(out.x, 7) ^ out.y;
    return out;
}

__host__ __device__ inline uint2 unwhiten(uint2 in) {
    in.x = rotl32(in.x ^ in.y, 25);
    return in;
}

__host__ __device__ inline uint2 whitenInverse(uint2 v, const uint16_t *k) {
    return cryptBlock(unwhiten(v), k);
}

__constant__ uint16_t cKeys[2][NKEYS];

__global__ void encrypt(const uint2 *in, uint2 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = cryptBlock(in[i], cKeys[0]);
}

__global__ void decrypt(const uint2 *in, uint2 *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint2 v = cryptBlock(unwhiten(in[i]), cKeys[1]);
        v.x = rotl32(v.x ^ v.y, 25);  // undo the whitening the decryption rounds added
        out[i] = v;
    }
}

static uint16_t mulInv(uint16_t a) {
    if (a <= 1) return a;
    int64_t t0 = 0, t1 = 1, r0 = 65537, r1 = a;
    while (r1) {
        int64_t q = r0 / r1, t = r0 - q * r1; r0 = r1; r1 = t;
        t = t0 - q * t1; t0 = t1; t1 = t;
    }
    if (t0 < 0) t0 += 65537;
    return (uint16_t)t0;
}

static void schedule(const uint16_t key[8], uint16_t *ek) {
    uint16_t w[8];
    memcpy(w, key, sizeof w);
    for (int i = 0; i < NKEYS; i++) {
        if (i && i % 8 == 0) {  // rotate the 128-bit key left by 25
            uint16_t v[8];
            for (int j = 0; j < 8; j++) v[j] = (uint16_t)((w[(j + 1) % 8] << 9) | (w[(j + 2) % 8] >> 7));
            memcpy(w, v, sizeof w);
        }
        ek[i] = w[i % 8];
    }
}

static void invert(const uint16_t *ek, uint16_t *dk) {
    // decryption round r undoes encryption round ROUNDS-1-r: the inverted output transform
    // (its two additions swapped except in the first round), then that round's mixing keys
    uint16_t out[NKEYS];
    for (int r = 0; r < ROUNDS; r++) {
        int er = ROUNDS - r;  // encryption key group feeding this decryption round's first half
        out[6 * r + 0] = mulInv(ek[6 * er + 0]);
        out[6 * r + 1] = (uint16_t)-ek[6 * er + (r ? 2 : 1)];
        out[6 * r + 2] = (uint16_t)-ek[6 * er + (r ? 1 : 2)];
        out[6 * r + 3] = mulInv(ek[6 * er + 3]);
        out[6 * r + 4] = ek[6 * (er - 1) + 4];
        out[6 * r + 5] = ek[6 * (er - 1) + 5];
    }
    out[6 * ROUNDS + 0] = mulInv(ek[0]);
    out[6 * ROUNDS + 1] = (uint16_t)-ek[1];
    out[6 * ROUNDS + 2] = (uint16_t)-ek[2];
    out[6 * ROUNDS + 3] = mulInv(ek[3]);
    memcpy(dk, out, sizeof out);
}

int main() {
    const uint16_t key[8] = {0x1a2b, 0x3c4d, 0x0001, 0xfffe, 0x8000, 0x0102, 0x7777, 0xbeef};
    uint16_t ek[NKEYS], dk[NKEYS];
    schedule(key, ek);
    invert(ek, dk);
    for (int i = 0; i < NKEYS; i++)
        if (mulMod(ek[i], mulInv(ek[i])) != 1 && ek[i] > 1) { printf("bad inverse\n"); return 1; }

    const int n = 50000;
    uint2 *plain = (uint2 *)malloc(n * sizeof(uint2)), *ct = (uint2 *)malloc(n * sizeof(uint2));
    uint2 *back = (uint2 *)malloc(n * sizeof(uint2));
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u; plain[i].x = s;
        s = s * 1664525u + 1013904223u; plain[i].y = (i % 5 == 0) ? 0 : s;  // zero words too
    }
    CK(cudaMemcpyToSymbol(cKeys, ek, sizeof ek, 0));
    CK(cudaMemcpyToSymbol(cKeys, dk, sizeof dk, sizeof ek));
    uint2 *dp, *dc, *db;
    CK(cudaMalloc(&dp, n * sizeof(uint2))); CK(cudaMalloc(&dc, n * sizeof(uint2)));
    CK(cudaMalloc(&db, n * sizeof(uint2)));
    CK(cudaMemcpy(dp, plain, n * sizeof(uint2), cudaMemcpyHostToDevice));
    encrypt<<<(n + 255) / 256, 256>>>(dp, dc, n);
    CK(cudaGetLastError());
    decrypt<<<64, 128>>>(dc, db, n);
    CK(cudaMemcpy(ct, dc, n * sizeof(uint2), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(back, db, n * sizeof(uint2), cudaMemcpyDeviceToHost));

    int wrongCt = 0, wrongBack = 0;
    uint32_t digest = 0;
    for (int i = 0; i < n; i++) {
        uint2 h = cryptBlock(plain[i], ek);
        wrongCt += h.x != ct[i].x || h.y != ct[i].y;
        uint2 r = cryptBlock(unwhiten(ct[i]), dk);
        r.x = rotl32(r.x ^ r.y, 25);
        wrongBack += back[i].x != plain[i].x || back[i].y != plain[i].y || r.x != plain[i].x;
        digest = rotl32(digest, 5) ^ ct[i].x ^ (ct[i].y * 2654435761u);
    }
    printf("ciphertext digest %08x, first block %08x %08x\n", digest, ct[0].x, ct[0].y);
    printf("%d ciphertexts differ from the host's, %d round trips fail\n", wrongCt, wrongBack);
    CK(cudaFree(dp)); CK(cudaFree(dc)); CK(cudaFree(db));
    free(plain); free(ct); free(back);
    bool ok = wrongCt == 0 && wrongBack == 0;
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
