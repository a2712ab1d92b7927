// expect: global_race
// launch: --grid 2 --block 64 --arg buf:1024:zero --arg buf:4:zero --arg buf:512:zero
// A lock-free stack (Treiber) pushed by atomicCAS on the head (node index + 1; 0 is empty): each
// thread fills its node, pushes it, then reads the value of the node below its own. Without
// fences the CAS loop is relaxed: the reader's CAS takes the head from the pusher's CAS, but
// nothing orders the pusher's plain store of `val` before the reader's plain load of it.
struct Node { int val; int next; };
extern "C" __global__ void gr_cas_stack_push_nofence(Node *nodes, int *head, int *out) {
    int me = blockIdx.x * blockDim.x + threadIdx.x;
    nodes[me].val = me * 3 + 1;
    int old = *(volatile int *)head, prev;
    do {
        prev = old;
        nodes[me].next = prev;
        old = atomicCAS(head, prev, me + 1);
    } while (old != prev);
    out[me] = prev > 0 ? nodes[prev - 1].val : -1;
}
