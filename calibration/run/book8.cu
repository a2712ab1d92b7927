// A device query in the style of the book's chapters 2 and 3, written for this project: the driver
// and runtime versions, the cudaDeviceProp fields the book prints (memory, caches, texture limits,
// block and grid limits, pitch, alignment), the clock and memory figures through
// cudaDeviceGetAttribute (CUDA 13 dropped them from cudaDeviceProp), derived figures (peak memory
// bandwidth, warps per SM), and the device picked by the most multiprocessors. No kernels; ends
// with "Test PASSED" when the figures are self-consistent.
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int attr(cudaDeviceAttr a, int dev) {
    int v = -1;
    CK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
}

int main() {
    int count = 0;
    CK(cudaGetDeviceCount(&count));
    printf("Detected %d CUDA capable device(s)\n", count);
    int driver = 0, runtime = 0;
    CK(cudaDriverGetVersion(&driver));
    CK(cudaRuntimeGetVersion(&runtime));
    printf("CUDA driver version / runtime version  %d.%d / %d.%d\n", driver / 1000, (driver % 100) / 10,
           runtime / 1000, (runtime % 100) / 10);
    int best = 0, bestSms = -1;
    bool ok = count > 0;
    for (int dev = 0; dev < count; dev++) {
        cudaDeviceProp p;
        CK(cudaGetDeviceProperties(&p, dev));
        printf("Device %d: \"%s\"\n", dev, p.name);
        printf("  compute capability                     %d.%d\n", p.major, p.minor);
        printf("  total global memory                    %.2f GBytes (%llu bytes)\n",
               p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), (unsigned long long)p.totalGlobalMem);
        int clk = attr(cudaDevAttrClockRate, dev), mclk = attr(cudaDevAttrMemoryClockRate, dev);
        int bus = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
        printf("  GPU clock rate                         %.0f MHz (%0.2f GHz)\n", clk * 1e-3f, clk * 1e-6f);
        printf("  memory clock rate                      %.0f MHz\n", mclk * 1e-3f);
        printf("  memory bus width                       %d-bit (prop %d)\n", bus, p.memoryBusWidth);
        printf("  peak memory bandwidth                  %.1f GB/s\n", 2.0 * mclk * (bus / 8) / 1.0e6);
        printf("  L2 cache size                          %d bytes\n", p.l2CacheSize);
        printf("  persisting L2 max / window             %d / %d bytes\n", p.persistingL2CacheMaxSize,
               p.accessPolicyMaxWindowSize);
        printf("  max texture dimension size (x,y,z)     1D=(%d), 2D=(%d,%d), 3D=(%d,%d,%d)\n",
               p.maxTexture1D, p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0],
               p.maxTexture3D[1], p.maxTexture3D[2]);
        printf("  max layered texture size (dim) x layers 1D=(%d) x %d, 2D=(%d,%d) x %d\n",
               p.maxTexture1DLayered[0], p.maxTexture1DLayered[1], p.maxTexture2DLayered[0],
               p.maxTexture2DLayered[1], p.maxTexture2DLayered[2]);
        printf("  max surface 1D / 2D / 3D               %d / (%d,%d) / (%d,%d,%d)\n", p.maxSurface1D,
               p.maxSurface2D[0], p.maxSurface2D[1], p.maxSurface3D[0], p.maxSurface3D[1],
               p.maxSurface3D[2]);
        printf("  total constant memory                  %zu bytes\n", p.totalConstMem);
        printf("  shared memory per block / optin / SM   %zu / %zu / %zu bytes\n", p.sharedMemPerBlock,
               p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor);
        printf("  registers per block / per SM           %d / %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
        printf("  warp size                              %d\n", p.warpSize);
        printf("  multiprocessors                        %d\n", p.multiProcessorCount);
        printf("  max threads per multiprocessor         %d\n", p.maxThreadsPerMultiProcessor);
        printf("  max warps per multiprocessor           %d\n", p.maxThreadsPerMultiProcessor / 32);
        printf("  max blocks per multiprocessor          %d\n", p.maxBlocksPerMultiProcessor);
        printf("  max threads per block                  %d\n", p.maxThreadsPerBlock);
        printf("  max block dimensions                   %d x %d x %d\n", p.maxThreadsDim[0],
               p.maxThreadsDim[1], p.maxThreadsDim[2]);
        printf("  max grid dimensions                    %d x %d x %d\n", p.maxGridSize[0], p.maxGridSize[1],
               p.maxGridSize[2]);
        printf("  max memory pitch                       %zu bytes\n", p.memPitch);
        printf("  texture alignment / pitch alignment    %zu / %zu bytes\n", p.textureAlignment,
               p.texturePitchAlignment);
        printf("  async engines                          %d\n", p.asyncEngineCount);
        printf("  concurrent kernels / managed / mapped  %d / %d / %d\n", p.concurrentKernels,
               p.managedMemory, p.canMapHostMemory);
        printf("  unified addressing / ECC / integrated  %d / %d / %d\n", p.unifiedAddressing, p.ECCEnabled,
               p.integrated);
        printf("  cooperative launch / cluster launch    %d / %d\n", p.cooperativeLaunch, p.clusterLaunch);
        printf("  compute mode                           %d\n", attr(cudaDevAttrComputeMode, dev));
        printf("  kernel exec timeout                    %d\n", attr(cudaDevAttrKernelExecTimeout, dev));
        printf("  global L1 / local L1 cache             %d / %d\n", p.globalL1CacheSupported,
               p.localL1CacheSupported);
        printf("  stream priorities supported            %d\n", p.streamPrioritiesSupported);
        printf("  PCI domain:bus:device                  %d:%d:%d\n", attr(cudaDevAttrPciDomainId, dev) >= 0,
               attr(cudaDevAttrPciBusId, dev) >= 0, attr(cudaDevAttrPciDeviceId, dev) >= 0);
        size_t freeB = 0, totalB = 0;
        CK(cudaMemGetInfo(&freeB, &totalB));
        printf("  cudaMemGetInfo total equals the prop   %s\n", totalB == p.totalGlobalMem ? "yes" : "no");
        // attributes against the struct
        ok &= attr(cudaDevAttrMaxThreadsPerBlock, dev) == p.maxThreadsPerBlock;
        ok &= attr(cudaDevAttrMaxSharedMemoryPerBlock, dev) == (int)p.sharedMemPerBlock;
        ok &= attr(cudaDevAttrMultiProcessorCount, dev) == p.multiProcessorCount;
        ok &= attr(cudaDevAttrL2CacheSize, dev) == p.l2CacheSize;
        ok &= attr(cudaDevAttrMaxTexture1DWidth, dev) == p.maxTexture1D;
        ok &= attr(cudaDevAttrMaxTexture2DHeight, dev) == p.maxTexture2D[1];
        ok &= attr(cudaDevAttrMaxTexture3DDepth, dev) == p.maxTexture3D[2];
        ok &= attr(cudaDevAttrMaxRegistersPerMultiprocessor, dev) == p.regsPerMultiprocessor;
        ok &= attr(cudaDevAttrComputeCapabilityMajor, dev) == p.major;
        ok &= bus == p.memoryBusWidth && clk > 0 && mclk > 0 && freeB <= totalB;
        if (p.multiProcessorCount > bestSms) { bestSms = p.multiProcessorCount; best = dev; }
    }
    printf("device with the most multiprocessors: %d (%d SMs)\n", best, bestSms);
    CK(cudaSetDevice(best));
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
