// A header of the driver tests, found through -I: the tile edge comes from -D TILE=..., and a
// device helper the kernels call.
#pragma once
#ifndef TILE
#error "compile with -D TILE=<edge of the shared tile>"
#endif

struct Dims {
    int w;
    int h;
    float s;
};

__device__ inline float scaled(float x, float s) { return x * s; }
