// strided.cu with the bank permutation `warpscope fix` recommends for it (no padding or swizzle reaches
// the ideal there: the best padding leaves 96 wavefronts against 88). Element i of s lives at
// AT(i): the first 8 rows of 32 floats are permuted inside their row by the table, read from global
// memory through L1 (the table lookup is the price); the rest stay. Same results; no extra shared memory.
__device__ const unsigned char s_bank_col[8][32] = {{18,28,7,3,12,5,25,16,23,11,21,0,22,13,14,15,4,8,2,10,1,19,17,6,24,26,30,20,27,29,9,31}, {3,12,8,25,0,14,19,7,26,9,6,2,11,30,16,1,31,17,5,23,20,21,13,18,10,27,29,22,28,24,15,4}, {11,23,8,3,4,5,6,0,21,9,24,16,12,13,14,15,2,17,18,19,1,20,22,10,7,25,26,27,28,29,30,31}, {5,1,2,3,4,24,6,7,27,9,10,11,12,13,14,15,16,17,18,19,8,21,22,23,20,25,26,0,28,29,30,31}, {0,1,2,3,4,5,6,7,8,24,10,11,12,13,14,15,22,17,18,19,20,21,16,23,9,25,26,27,28,29,30,31}, {12,1,2,3,4,5,6,7,17,9,10,11,8,13,0,15,28,16,18,19,20,21,22,23,14,25,26,27,24,29,30,31}, {30,24,2,3,4,5,16,7,6,9,10,11,12,13,14,15,29,17,18,19,20,21,22,23,1,25,26,27,28,8,0,31}, {13,1,2,3,4,5,6,7,19,9,10,11,12,8,14,24,25,17,18,0,20,21,22,23,15,16,26,27,28,29,30,31}};
#define AT(i) ((i) < 256 ? ((i) & 0xffffffe0u) | s_bank_col[(i) / 32][(i) % 32] : (i))
#define strided stridedFix
#include "strided.cu"
