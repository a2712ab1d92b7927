// A program that waits for a signal (tests/run_signals.rs):
//   wait PIDFILE MARKER catch|plain|busy
// launches one kernel three times, writes its pid to PIDFILE, then waits up to two minutes. With
// `catch` it counts SIGINT, SIGTERM, SIGHUP and SIGQUIT; on the first it waits 300 ms more (for a
// second copy to arrive), writes "SIGNAL COUNT" to MARKER and exits 3. With `plain` the signals
// keep their default action. With `busy` they do too, and it launches a kernel that runs for
// minutes under the emulator before it waits.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void spin(unsigned *p, int n) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < n; ++i) x = x * 1664525u + 1013904223u;
  p[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

static volatile sig_atomic_t got = 0;
static volatile sig_atomic_t count = 0;

static void on_signal(int sig) {
  got = sig;
  count = count + 1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: wait PIDFILE MARKER catch|plain|busy\n");
    return 2;
  }
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) return 1;
  for (int i = 0; i < 3; ++i) fill<<<1, 32>>>(d);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  cudaFree(d);
  if (strcmp(argv[3], "catch") == 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaction(s, &sa, nullptr);
  }
  // written whole, then renamed: the test never reads half a pid
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
  FILE *f = fopen(tmp, "w");
  if (!f) return 1;
  fprintf(f, "%d\n", (int)getpid());
  fclose(f);
  rename(tmp, argv[1]);
  if (strcmp(argv[3], "busy") == 0) {
    unsigned *q = nullptr;
    if (cudaMalloc(&q, 4096 * 256 * sizeof(unsigned)) != cudaSuccess) return 1;
    spin<<<4096, 256>>>(q, 1 << 20);
    cudaDeviceSynchronize();
  }
  for (int i = 0; i < 120000 && !got; ++i) usleep(1000);
  if (!got) return 0;
  usleep(300000);
  f = fopen(argv[2], "w");
  if (!f) return 1;
  fprintf(f, "%d %d\n", (int)got, (int)count);
  fclose(f);
  return 3;
}
