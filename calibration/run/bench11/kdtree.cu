// Tree search with an explicit stack: a 2-D kd-tree of 8192 integer points built on the host
// (median splits alternating x and y, nodes as an array of structs with child indices), nearest
// neighbour queries a thread a query with a stack of (node, bound) pairs in local memory (the near
// child first, the far child pushed when the splitting plane is closer than the best so far, pops
// pruned by their bound, ties to the lower point index) counting the nodes visited; then a radius
// count over the same tree (both children when the disc crosses the plane). Integer coordinates:
// the host runs the same walks and must agree on every result and visit count.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Node { int x, y, id, axis, left, right; };
constexpr int NPT = 8192, NQ = 6000, STK = 48;

__host__ __device__ inline void nearest(const Node *t, int qx, int qy, int &best, int &bestId, int &visits) {
  int sn[STK], sb[STK], sp = 0;
  sn[sp] = 0; sb[sp] = 0; ++sp;
  best = 0x7fffffff; bestId = -1; visits = 0;
  while (sp > 0) {
    --sp;
    int n = sn[sp];
    if (sb[sp] > best) continue;
    ++visits;
    Node nd = t[n];
    int dx = nd.x - qx, dy = nd.y - qy, d = dx * dx + dy * dy;
    if (d < best || (d == best && nd.id < bestId)) { best = d; bestId = nd.id; }
    int diff = nd.axis == 0 ? qx - nd.x : qy - nd.y;
    int nearC = diff < 0 ? nd.left : nd.right, farC = diff < 0 ? nd.right : nd.left;
    if (farC >= 0 && diff * diff <= best) { sn[sp] = farC; sb[sp] = diff * diff; ++sp; }
    if (nearC >= 0) { sn[sp] = nearC; sb[sp] = 0; ++sp; }
  }
}

__host__ __device__ inline int radiusCount(const Node *t, int qx, int qy, int r2, int &visits) {
  int st[STK], sp = 0, c = 0;
  st[sp++] = 0;
  visits = 0;
  while (sp > 0) {
    Node nd = t[st[--sp]];
    ++visits;
    int dx = nd.x - qx, dy = nd.y - qy;
    c += dx * dx + dy * dy <= r2;
    int diff = nd.axis == 0 ? qx - nd.x : qy - nd.y;
    if (diff * diff <= r2) {
      if (nd.left >= 0) st[sp++] = nd.left;
      if (nd.right >= 0) st[sp++] = nd.right;
    } else {
      int nc = diff < 0 ? nd.left : nd.right;
      if (nc >= 0) st[sp++] = nc;
    }
  }
  return c;
}

__global__ void nnQuery(const Node *t, const int2 *q, int4 *out, int nq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  int best, id, v;
  nearest(t, q[i].x, q[i].y, best, id, v);
  out[i] = make_int4(best, id, v, 0);
}

__global__ void radiusQuery(const Node *t, const int2 *q, int2 *out, int nq, int r2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  int v, c = radiusCount(t, q[i].x, q[i].y, r2 + (i % 7) * 4000, v);
  out[i] = make_int2(c, v);
}

struct P { int x, y, id; };
static int build(std::vector<Node> &t, std::vector<P> &pts, int lo, int hi, int depth) {
  if (lo >= hi) return -1;
  int axis = depth & 1, mid = (lo + hi) / 2;
  std::nth_element(pts.begin() + lo, pts.begin() + mid, pts.begin() + hi, [axis](const P &a, const P &b) {
    int ka = axis ? a.y : a.x, kb = axis ? b.y : b.x;
    return ka != kb ? ka < kb : a.id < b.id;
  });
  int me = (int)t.size();
  t.push_back(Node{pts[mid].x, pts[mid].y, pts[mid].id, axis, -1, -1});
  int l = build(t, pts, lo, mid, depth + 1);
  int r = build(t, pts, mid + 1, hi, depth + 1);
  t[me].left = l; t[me].right = r;
  return me;
}

int main() {
  unsigned s = 99991u;
  auto rnd = [&](unsigned m) { s = s * 1103515245u + 12345u; return (int)((s >> 8) % m); };
  std::vector<P> pts(NPT);
  for (int i = 0; i < NPT; ++i) {
    if (i % 4 == 0) pts[i] = P{1000 + rnd(300), 2500 + rnd(200), i};
    else pts[i] = P{rnd(4096), rnd(4096), i};
  }
  std::vector<Node> tree;
  tree.reserve(NPT);
  build(tree, pts, 0, NPT, 0);
  std::vector<int2> q(NQ);
  for (int i = 0; i < NQ; ++i) q[i] = make_int2(rnd(4400) - 150, rnd(4400) - 150);
  Node *dt; int2 *dq, *dr; int4 *dn;
  CK(cudaMalloc(&dt, NPT * sizeof(Node))); CK(cudaMalloc(&dq, NQ * sizeof(int2)));
  CK(cudaMalloc(&dn, NQ * sizeof(int4))); CK(cudaMalloc(&dr, NQ * sizeof(int2)));
  CK(cudaMemcpy(dt, tree.data(), NPT * sizeof(Node), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dq, q.data(), NQ * sizeof(int2), cudaMemcpyHostToDevice));
  const int r2 = 90 * 90;
  nnQuery<<<(NQ + 127) / 128, 128>>>(dt, dq, dn, NQ);
  radiusQuery<<<(NQ + 127) / 128, 128>>>(dt, dq, dr, NQ, r2);
  CK(cudaGetLastError());
  std::vector<int4> nn(NQ);
  std::vector<int2> rc(NQ);
  CK(cudaMemcpy(nn.data(), dn, NQ * sizeof(int4), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rc.data(), dr, NQ * sizeof(int2), cudaMemcpyDeviceToHost));
  int bad = 0, bruteBad = 0;
  long long vsum = 0, csum = 0, rvs = 0;
  for (int i = 0; i < NQ; ++i) {
    int best, id, v;
    nearest(tree.data(), q[i].x, q[i].y, best, id, v);
    bad += nn[i].x != best || nn[i].y != id || nn[i].z != v;
    int bb = 0x7fffffff, bi = -1;
    for (int j = 0; j < NPT; ++j) {
      int dx = pts[j].x - q[i].x, dy = pts[j].y - q[i].y, d = dx * dx + dy * dy;
      if (d < bb || (d == bb && pts[j].id < bi)) { bb = d; bi = pts[j].id; }
    }
    bruteBad += bb != nn[i].x || bi != nn[i].y;
    int rv, c = radiusCount(tree.data(), q[i].x, q[i].y, r2 + (i % 7) * 4000, rv);
    bad += rc[i].x != c || rc[i].y != rv;
    vsum += nn[i].z; csum += rc[i].x; rvs += rc[i].y;
  }
  printf("nearest: %d wrong (%d against brute force), visits %lld; radius counts %lld, visits %lld\n", bad, bruteBad,
         vsum, csum, rvs);
  bool ok = bad == 0 && bruteBad == 0;
  printf("kdtree: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
