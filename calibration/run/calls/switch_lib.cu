// The switches of calibration/run/calls/switch.cu: device functions ptxas keeps apart, each with a
// dense switch that ptxas compiles into a jump table (BRX through constant bank 2).
__device__ __noinline__ int step(int code, int acc, int i)
{
    switch (code) {
    case 0: return acc + 3;
    case 1: return acc * 5;
    case 2: return acc ^ 0x35;
    case 3: return acc - i;
    case 4: return acc >> 1;
    case 5: return (acc & 1) ? acc + 17 : acc - 9;
    case 6: return -acc;
    case 7: return acc * acc + 1;
    case 8: return acc | 0x40;
    default: return acc + 1000;
    }
}

__device__ __noinline__ int shade(int v)
{
    int r = 0;
    for (int k = 0; k < 3; ++k) {
        switch ((v >> (4 * k)) % 11) {
        case 0: r += 1; break;
        case 1: r ^= v; break;
        case 2: r -= 7; break;
        case 3: r += v >> 3; break;
        case 4: r *= 3; break;
        case 5: r |= 0x100; break;
        case 6: r += k; break;
        case 7: r = ~r; break;
        case 8: r += v & 31; break;
        case 9: r -= v % 13; break;
        default: r += 2; break;
        }
    }
    return r;
}

// reached only through a function pointer (calibration/run/calls/switch.cu `pointers`)
__device__ __noinline__ int twist(int v)
{
    switch (v % 9) {
    case 0: return v + 5;
    case 1: return v * 7;
    case 2: return v ^ 0x99;
    case 3: return v - 100;
    case 4: return v << 3;
    case 5: return v >> 2;
    case 6: return v & 0xfff;
    case 7: return ~v;
    default: return 3;
    }
}

__device__ int (*table[2])(int) = {shade, twist};
