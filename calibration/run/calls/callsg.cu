// calls as one translation unit (for -G without -rdc: every function still kept apart).
#define CALLS_ONE_UNIT
#include "calls_lib.cu"
#include "calls.cu"
