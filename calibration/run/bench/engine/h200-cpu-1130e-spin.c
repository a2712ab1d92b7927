// CPU scaling probe: each copy runs a fixed amount of work on its own and prints its own wall
// seconds. "alu": dependent integer arithmetic in registers (no memory); "mem": passes over its own
// 64 MB array (read, add, write), the access pattern of a memory-bound emulated kernel.
//   spin alu|mem
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
  int mem = argc > 1 && strcmp(argv[1], "mem") == 0;
  double t0 = now();
  unsigned long long x = 88172645463325252ull, acc = 0;
  if (!mem) {
    for (long i = 0; i < 400000000L; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; acc += x; }
  } else {
    size_t n = (64u << 20) / 8;
    unsigned long long *a = malloc(n * 8);
    for (size_t i = 0; i < n; i++) a[i] = i;
    t0 = now();
    for (int p = 0; p < 6; p++) for (size_t i = 0; i < n; i++) { a[i] += a[(i * 7919) & (n - 1)] ^ p; }
    acc = a[n / 3];
  }
  printf("%s %.3f %llu\n", mem ? "mem" : "alu", now() - t0, acc & 1);
  return 0;
}
