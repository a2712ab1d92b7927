// A tokenizer a thread a line: a `while (true)` loop over the line's bytes that skips blanks and
// comments by `continue`, leaves by `break` at the end of the line or at a `;`, reads decimal
// and hexadecimal numbers, names and two-character operators, and folds each token into a
// running hash and per-kind counts; a bad character ends the line early with an error flag.
// Lines of different lengths and mixes (some all blanks, some one long number), so lanes leave
// the loop at different iterations and by different exits. Checked against the same function run
// on the host. Built also with -G (`tokens_G`).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

struct Counts { unsigned hash; int nums, names, ops, err; };

__host__ __device__ Counts scan(const char *s, int len) {
  Counts c = {2166136261u, 0, 0, 0, 0};
  int p = 0;
  while (true) {
    if (p >= len) break;
    const char ch = s[p];
    if (ch == ' ' || ch == '\t') { ++p; continue; }
    if (ch == '#') { while (p < len && s[p] != '\n') ++p; continue; }
    if (ch == ';' || ch == '\n') break;
    unsigned v = 0;
    if (ch >= '0' && ch <= '9') {
      if (ch == '0' && p + 1 < len && s[p + 1] == 'x') {
        p += 2;
        while (p < len) {
          const char d = s[p];
          if (d >= '0' && d <= '9') v = v * 16 + (d - '0');
          else if (d >= 'a' && d <= 'f') v = v * 16 + (d - 'a' + 10);
          else break;
          ++p;
        }
      } else {
        while (p < len && s[p] >= '0' && s[p] <= '9') { v = v * 10 + (s[p] - '0'); ++p; }
      }
      ++c.nums;
    } else if ((ch >= 'a' && ch <= 'z') || ch == '_') {
      while (p < len && ((s[p] >= 'a' && s[p] <= 'z') || s[p] == '_' || (s[p] >= '0' && s[p] <= '9'))) { v = v * 31 + s[p]; ++p; }
      ++c.names;
    } else if (ch == '+' || ch == '-' || ch == '*' || ch == '<' || ch == '=') {
      v = ch;
      if (p + 1 < len && (s[p + 1] == '=' || s[p + 1] == ch)) { v = v * 256 + s[p + 1]; ++p; }
      ++p;
      ++c.ops;
    } else {
      c.err = 1;
      break;
    }
    c.hash = (c.hash ^ v) * 16777619u;
  }
  return c;
}

__global__ void tokenize(const char *text, const int *start, const int *len, int lines, Counts *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lines) return;
  out[i] = scan(text + start[i], len[i]);
}

int main() {
  const int lines = 4096;
  unsigned st = 1234567u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  const char *words[] = {"alpha", "x", "beta_2", "count", "i", "zz_top", "q9"};
  const char *ops[] = {"+", "-", "*", "<=", "==", "++", "<", "="};
  std::vector<char> text; std::vector<int> start(lines), len(lines);
  for (int i = 0; i < lines; ++i) {
    start[i] = (int)text.size();
    const int kind = (i / 32) % 6;
    const int ntok = kind == 0 ? 1 : (int)(rnd() % (kind == 5 ? 3 : 14)) + 1;
    std::string l;
    for (int k = 0; k < ntok; ++k) {
      const unsigned r = rnd() % 100;
      if (kind == 0) { l += std::string(rnd() % 40, ' '); l += std::to_string(rnd()); break; }
      if (r < 25) l += std::to_string(rnd() % 100000);
      else if (r < 35) { char b[16]; snprintf(b, 16, "0x%x", rnd() % 65536); l += b; }
      else if (r < 60) l += words[rnd() % 7];
      else if (r < 85) l += ops[rnd() % 8];
      else if (r < 90) l += "  # note\t";
      else if (r < 93 && kind == 4) l += "$";
      else if (r < 95) l += ";";
      else l += "\t";
      l += (rnd() % 3) ? " " : "";
    }
    if (i % 97 == 5) l = std::string(60, ' ');
    text.insert(text.end(), l.begin(), l.end());
    text.push_back('\n');
    len[i] = (int)l.size() + (i % 2);   // odd lines see their newline
  }
  char *dt; int *ds, *dl; Counts *dc;
  CK(cudaMalloc(&dt, text.size())); CK(cudaMalloc(&ds, lines * 4)); CK(cudaMalloc(&dl, lines * 4));
  CK(cudaMalloc(&dc, lines * sizeof(Counts)));
  CK(cudaMemcpy(dt, text.data(), text.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ds, start.data(), lines * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dl, len.data(), lines * 4, cudaMemcpyHostToDevice));
  tokenize<<<lines / 128, 128>>>(dt, ds, dl, lines, dc);
  CK(cudaGetLastError());
  std::vector<Counts> c(lines);
  CK(cudaMemcpy(c.data(), dc, lines * sizeof(Counts), cudaMemcpyDeviceToHost));
  int bad = 0; unsigned h = 0; long long nums = 0, names = 0, opsn = 0, errs = 0;
  for (int i = 0; i < lines; ++i) {
    const Counts e = scan(text.data() + start[i], len[i]);
    if (memcmp(&e, &c[i], sizeof e) != 0) ++bad;
    h = h * 31 + c[i].hash; nums += c[i].nums; names += c[i].names; opsn += c[i].ops; errs += c[i].err;
  }
  printf("%zu bytes, %d lines: hash %08x, numbers %lld, names %lld, operators %lld, errors %lld\n", text.size(), lines, h, nums, names, opsn, errs);
  printf("%s (%d differ)\n", bad == 0 ? "PASS" : "FAIL", bad);
  return bad == 0 ? 0 : 1;
}
