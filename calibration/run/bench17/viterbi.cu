// Viterbi decoding of a 128-state hidden Markov model, a block a sequence and a thread a state:
// at each of T steps every state takes the best predecessor over the 128 scores in shared memory
// (broadcast reads, log transitions read column-wise from global memory, strict > so ties go to
// the lowest state), adds its log emission for the step's symbol, writes its backpointer as a
// byte; scores ping-pong between two shared rows, a barrier a step. The final state by a shared
// argmax tree, the path traced back by one thread. Log probabilities are multiples of 1/64, so the
// sums are exact and the host's decode must equal the GPU's bit for bit, ties included.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int S = 128, SYM = 16;

__global__ void viterbi(const float* __restrict__ logA, const float* __restrict__ logB, const float* __restrict__ logPi,
                        const unsigned char* __restrict__ obs, unsigned char* back, int* path, float* score, int T) {
  __shared__ float delta[2][S];
  __shared__ float bestV[S];
  __shared__ int bestI[S];
  int s = threadIdx.x, seq = blockIdx.x;
  const unsigned char* o = obs + (size_t)seq * T;
  unsigned char* bp = back + (size_t)seq * T * S;
  delta[0][s] = logPi[s] + logB[s * SYM + o[0]];
  __syncthreads();
  int cur = 0;
  for (int t = 1; t < T; ++t) {
    float best = -1e30f; int arg = 0;
    for (int p = 0; p < S; ++p) {
      float v = delta[cur][p] + logA[p * S + s];
      if (v > best) { best = v; arg = p; }
    }
    delta[cur ^ 1][s] = best + logB[s * SYM + o[t]];
    bp[t * S + s] = (unsigned char)arg;
    cur ^= 1;
    __syncthreads();
  }
  bestV[s] = delta[cur][s]; bestI[s] = s;
  __syncthreads();
  for (int h = S / 2; h > 0; h >>= 1) {
    if (s < h) {
      float a = bestV[s], b = bestV[s + h];
      if (b > a || (b == a && bestI[s + h] < bestI[s])) { bestV[s] = b; bestI[s] = bestI[s + h]; }
    }
    __syncthreads();
  }
  if (s == 0) {
    int st = bestI[0];
    score[seq] = bestV[0];
    for (int t = T - 1; t >= 0; --t) {
      path[(size_t)seq * T + t] = st;
      if (t > 0) st = bp[t * S + st];
    }
  }
}

int main() {
  const int B = 40, T = 300;
  unsigned r = 11u;
  auto rnd = [&]() { r ^= r << 13; r ^= r >> 17; r ^= r << 5; return r; };
  std::vector<float> A(S * S), E(S * SYM), Pi(S);
  for (auto& v : A) v = -(float)(1 + rnd() % 640) / 64.0f;
  for (auto& v : E) v = -(float)(1 + rnd() % 320) / 64.0f;
  for (auto& v : Pi) v = -(float)(rnd() % 256) / 64.0f;
  std::vector<unsigned char> obs(B * T);
  for (auto& v : obs) v = rnd() % SYM;
  float *dA, *dE, *dPi, *dsc; unsigned char *dobs, *dback; int* dpath;
  CK(cudaMalloc(&dA, 4 * S * S)); CK(cudaMalloc(&dE, 4 * S * SYM)); CK(cudaMalloc(&dPi, 4 * S)); CK(cudaMalloc(&dsc, 4 * B));
  CK(cudaMalloc(&dobs, B * T)); CK(cudaMalloc(&dback, (size_t)B * T * S)); CK(cudaMalloc(&dpath, 4 * B * T));
  CK(cudaMemcpy(dA, A.data(), 4 * S * S, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dE, E.data(), 4 * S * SYM, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dPi, Pi.data(), 4 * S, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dobs, obs.data(), B * T, cudaMemcpyHostToDevice));
  viterbi<<<B, S>>>(dA, dE, dPi, dobs, dback, dpath, dsc, T);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<int> path(B * T); std::vector<float> sc(B);
  CK(cudaMemcpy(path.data(), dpath, 4 * B * T, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(sc.data(), dsc, 4 * B, cudaMemcpyDeviceToHost));
  int bad = 0; double total = 0; unsigned hash = 2166136261u;
  std::vector<unsigned char> bp(T * S);
  for (int b = 0; b < B; ++b) {
    std::vector<float> d(S), nd(S);
    for (int s = 0; s < S; ++s) d[s] = Pi[s] + E[s * SYM + obs[b * T]];
    for (int t = 1; t < T; ++t) {
      for (int s = 0; s < S; ++s) {
        float best = -1e30f; int arg = 0;
        for (int p = 0; p < S; ++p) { float v = d[p] + A[p * S + s]; if (v > best) { best = v; arg = p; } }
        nd[s] = best + E[s * SYM + obs[b * T + t]];
        bp[t * S + s] = arg;
      }
      d.swap(nd);
    }
    int st = 0;
    for (int s = 1; s < S; ++s) if (d[s] > d[st]) st = s;
    if (sc[b] != d[st]) ++bad;
    for (int t = T - 1; t >= 0; --t) {
      if (path[b * T + t] != st) ++bad;
      hash = (hash ^ (unsigned)path[b * T + t]) * 16777619u;
      if (t > 0) st = bp[t * S + st];
    }
    total += sc[b];
  }
  printf("viterbi: %d sequences of %d steps over %d states, score sum %.4f, path hash %08x, wrong %d\n", B, T, S, total, hash, bad);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
