#pragma once
struct Frame {
    int width;
    int height;
    float gain[2];
    float4 bias;
};
__device__ inline float shade(const Frame &f, float v, int c) {
    return v * f.gain[c & 1] + f.bias.x * SCALE;
}
