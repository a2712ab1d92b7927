// expect: none
// launch: --grid 2 --block 64 --arg buf:1024:zero --arg buf:4:zero --arg buf:512:zero
// gr_cas_stack_push_nofence with __threadfence() before the push and after it: the pusher's
// fence and the reader's fence synchronise through the head the reader's CAS took from the
// pusher's CAS (fence-fence synchronisation at .gpu scope), so the node's value is ordered.
struct Node { int val; int next; };
extern "C" __global__ void gn_cas_stack_push_fence(Node *nodes, int *head, int *out) {
    int me = blockIdx.x * blockDim.x + threadIdx.x;
    nodes[me].val = me * 3 + 1;
    __threadfence();
    int old = *(volatile int *)head, prev;
    do {
        prev = old;
        nodes[me].next = prev;
        old = atomicCAS(head, prev, me + 1);
    } while (old != prev);
    __threadfence();
    out[me] = prev > 0 ? nodes[prev - 1].val : -1;
}
