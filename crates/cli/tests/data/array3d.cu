// cudaMalloc3DArray, cudaMemcpy3D into and out of a 3-D array (extents and array positions in
// elements, host positions in bytes), tex3D point samples, and the calls the runtime refuses.
#include <cstdio>
#include <cstring>

__global__ void sample(cudaTextureObject_t t, float *out) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  out[(z * 3 + y) * 5 + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

int main() {
  // a 5 x 3 x 2 float array
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  printf("malloc %d\n", (int)cudaMalloc3DArray(&a, &d, make_cudaExtent(5, 3, 2)));
  float host[2][3][5];
  for (int i = 0; i < 30; i++) (&host[0][0][0])[i] = 100.0f + i;
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(host, 5 * sizeof(float), 5, 3);
  p.dstArray = a;
  p.extent = make_cudaExtent(5, 3, 2);
  p.kind = cudaMemcpyHostToDevice;
  printf("copy in %d\n", (int)cudaMemcpy3D(&p));
  // overwrite texels x 1..2, y 1, z 1 with 7, 8 (host bytes from offset 4 of the row)
  float patch[3] = {0.0f, 7.0f, 8.0f};
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(patch, sizeof patch, 3, 1);
  p.srcPos = make_cudaPos(sizeof(float), 0, 0);
  p.dstArray = a;
  p.dstPos = make_cudaPos(1, 1, 1);
  p.extent = make_cudaExtent(2, 1, 1);
  p.kind = cudaMemcpyHostToDevice;
  printf("patch %d\n", (int)cudaMemcpy3D(&p));
  // a box reaching past the array's last slice
  p.dstPos = make_cudaPos(1, 1, 2);
  printf("past the end %d\n", (int)cudaMemcpy3D(&p));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  float *dOut;
  cudaMalloc(&dOut, 30 * sizeof(float));
  sample<<<1, dim3(5, 3, 2)>>>(t, dOut);
  float got[30];
  cudaMemcpy(got, dOut, sizeof got, cudaMemcpyDeviceToHost);
  printf("samples");
  for (int i = 0; i < 30; i++) printf(" %g", got[i]);
  printf("\n");
  // slice 1, row 1 back to the host
  float row[5];
  memset(&p, 0, sizeof p);
  p.srcArray = a;
  p.srcPos = make_cudaPos(0, 1, 1);
  p.dstPtr = make_cudaPitchedPtr(row, sizeof row, 5, 1);
  p.extent = make_cudaExtent(5, 1, 1);
  p.kind = cudaMemcpyDeviceToHost;
  printf("copy out %d:", (int)cudaMemcpy3D(&p));
  for (float v : row) printf(" %g", v);
  printf("\n");
  cudaArray_t b;
  printf("depth without height %d\n", (int)cudaMalloc3DArray(&b, &d, make_cudaExtent(4, 0, 2)));
  printf("layered %d\n", (int)cudaMalloc3DArray(&b, &d, make_cudaExtent(4, 4, 2), cudaArrayLayered));
  printf("free %d\n", (int)cudaFreeArray(a));
  return 0;
}
