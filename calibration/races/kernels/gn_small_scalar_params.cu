// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero --arg i16:7 --arg i8:-3 --arg bool:1 --arg f64:0.5 --arg u8:200
// Parameters of unusual scalar types (short, signed char, bool, double, unsigned char): each thread
// writes its own element.
__global__ void small_scalar_params(int *out, short s, signed char c, bool b, double d, unsigned char u) {
    int t = threadIdx.x;
    out[t] = s * t + c + (b ? 1 : 0) + (int)(d * t) + u;
}
