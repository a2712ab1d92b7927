// The host CPU's own figures, without warpscope: the clock a dependent chain of adds runs at,
// the cost of first-touching fresh anonymous memory (4 KB pages and transparent huge pages, a first
// and a second mapping of the same size: the second reuses pages the kernel just freed), a memset
// over touched memory, and the latency of dependent loads over 256 MB.
//   cpuprobe clock | clock1 [N] | ilp1 [N] | mem1 MB | fault MB | chase MB | touch MB (touch MB of fresh memory once and free it)
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void ru(const char *what, struct rusage *a, struct rusage *b) {
  double u = (b->ru_utime.tv_sec - a->ru_utime.tv_sec) + (b->ru_utime.tv_usec - a->ru_utime.tv_usec) * 1e-6;
  double s = (b->ru_stime.tv_sec - a->ru_stime.tv_sec) + (b->ru_stime.tv_usec - a->ru_stime.tv_usec) * 1e-6;
  printf("  %-26s user %.3f s sys %.3f s minflt %ld\n", what, u, s, b->ru_minflt - a->ru_minflt);
}

static void clockrate(void) {
  for (int rep = 0; rep < 3; rep++) {
    uint64_t n = 200000000, x = 1, y = 2;
    double t = now();
    __asm__ volatile(
        "1:\n\t"
        "add %1, %2\n\tadd %2, %1\n\tadd %1, %2\n\tadd %2, %1\n\t"
        "add %1, %2\n\tadd %2, %1\n\tadd %1, %2\n\tadd %2, %1\n\t"
        "dec %0\n\tjnz 1b\n"
        : "+r"(n), "+r"(x), "+r"(y));
    t = now() - t;
    printf("clock: 8 dependent adds x 2e8 in %.3f s: %.2f GHz (x=%lu)\n", t, 1.6e9 / t / 1e9, (unsigned long)(x & 1));
  }
}

// one short measure: GHz of a dependent add chain over n x 8 adds, printed as a bare number
static void clock1(uint64_t n) {
  uint64_t x = 1, y = 2, m = n;
  double t = now();
  __asm__ volatile(
      "1:\n\t"
      "add %1, %2\n\tadd %2, %1\n\tadd %1, %2\n\tadd %2, %1\n\t"
      "add %1, %2\n\tadd %2, %1\n\tadd %1, %2\n\tadd %2, %1\n\t"
      "dec %0\n\tjnz 1b\n"
      : "+r"(m), "+r"(x), "+r"(y));
  t = now() - t;
  printf("%.3f\n", 8.0 * n / t / 1e9);
}

// independent chains: 8 adds of 4 chains per iteration (throughput of the ALU ports, which a busy
// sibling hyperthread shares; the dependent chain above is bound by latency and barely feels it)
static void ilp1(uint64_t n) {
  uint64_t a = 1, b = 2, c = 3, d = 4, m = n;
  double t = now();
  __asm__ volatile(
      "1:\n\t"
      "add %1, %1\n\tadd %2, %2\n\tadd %3, %3\n\tadd %4, %4\n\t"
      "add %1, %1\n\tadd %2, %2\n\tadd %3, %3\n\tadd %4, %4\n\t"
      "dec %0\n\tjnz 1b\n"
      : "+r"(m), "+r"(a), "+r"(b), "+r"(c), "+r"(d));
  t = now() - t;
  printf("%.3f\n", 8.0 * n / t / 1e9);
}

// memset bandwidth over MB of touched memory (best of 3 passes, GB/s) and the latency of
// dependent loads over a random cycle in 32 MB (ns), as bare numbers
static void mem1(size_t mb) {
  size_t len = mb << 20;
  char *p = malloc(len);
  memset(p, 1, len);
  double best = 0;
  for (int i = 0; i < 3; i++) {
    double t = now();
    memset(p, i + 2, len);
    __asm__ volatile("" : : "r"(p) : "memory");
    t = now() - t;
    if (len / t / 1e9 > best) best = len / t / 1e9;
  }
  free(p);
  size_t n = (32u << 20) / sizeof(size_t);
  size_t *a = malloc(n * sizeof(size_t));
  for (size_t i = 0; i < n; i++) a[i] = i;
  uint64_t s = 88172645463325252ull;
  for (size_t i = n - 1; i > 0; i--) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    size_t j = s % i, t = a[i]; a[i] = a[j]; a[j] = t;
  }
  size_t k = 0, steps = 1000000;
  double t = now();
  for (size_t i = 0; i < steps; i++) k = a[k];
  t = now() - t;
  free(a);
  printf("%.2f %.1f %zu\n", best, t / steps * 1e9, k & 1);
}

static void fault(size_t mb) {
  size_t len = mb << 20;
  for (int huge = 0; huge < 2; huge++) {
    for (int pass = 0; pass < 2; pass++) {
      struct rusage a, b;
      char *p = mmap(NULL, len + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) { perror("mmap"); return; }
      char *q = (char *)(((uintptr_t)p + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
      madvise(q, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
      getrusage(RUSAGE_SELF, &a);
      double t = now();
      for (size_t i = 0; i < len; i += 4096) q[i] = 1;
      t = now() - t;
      getrusage(RUSAGE_SELF, &b);
      printf("fault %s pass %d: %zu MB first touch %.3f s = %.2f GB/s, %.0f ns per 4 KB\n", huge ? "THP" : "4K ", pass, mb, t, len / t / 1e9, t / (len / 4096) * 1e9);
      ru("", &a, &b);
      double t2 = now();
      memset(q, 2, len);
      t2 = now() - t2;
      printf("  memset over the touched memory: %.2f GB/s\n", len / t2 / 1e9);
      munmap(p, len + (2 << 20));
    }
  }
}

static void chase(size_t mb) {
  size_t n = (mb << 20) / sizeof(size_t);
  size_t *a = malloc(n * sizeof(size_t));
  for (size_t i = 0; i < n; i++) a[i] = i;
  // one cycle through every element, random order (Sattolo)
  uint64_t s = 88172645463325252ull;
  for (size_t i = n - 1; i > 0; i--) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    size_t j = s % i, t = a[i]; a[i] = a[j]; a[j] = t;
  }
  for (int rep = 0; rep < 2; rep++) {
    size_t k = 0, steps = 20000000;
    double t = now();
    for (size_t i = 0; i < steps; i++) k = a[k];
    t = now() - t;
    printf("chase %zu MB: %.1f ns per dependent load (k=%zu)\n", mb, t / steps * 1e9, k & 1);
  }
  free(a);
}

static void touch(size_t mb) {
  size_t len = mb << 20;
  double t = now();
  char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) { perror("mmap"); return; }
  madvise(p, len, MADV_NOHUGEPAGE);
  for (size_t i = 0; i < len; i += 4096) p[i] = 1;
  printf("touch: %zu MB in %.2f s\n", mb, now() - t);
  munmap(p, len);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  size_t mb = argc > 2 ? strtoul(argv[2], 0, 10) : 1024;
  if (!strcmp(argv[1], "clock")) clockrate();
  else if (!strcmp(argv[1], "ilp1")) ilp1(argc > 2 ? strtoull(argv[2], 0, 10) : 50000000);
  else if (!strcmp(argv[1], "mem1")) mem1(mb);
  else if (!strcmp(argv[1], "clock1")) clock1(argc > 2 ? strtoull(argv[2], 0, 10) : 50000000);
  else if (!strcmp(argv[1], "fault")) fault(mb);
  else if (!strcmp(argv[1], "chase")) chase(mb);
  else if (!strcmp(argv[1], "touch")) touch(mb);
  else return 2;
  return 0;
}
