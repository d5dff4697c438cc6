/*
 * The demo program: a CPU-bound loop whose amount of work is fixed at compile time.
 * `cc -O2 -DWORK=110 -o work work.c` does 10% more work than `-DWORK=100`.
 */
#include <stdint.h>
#include <stdio.h>

#ifndef WORK
#define WORK 100
#endif
#ifndef SCALE
#define SCALE 400000L
#endif

int main(void) {
  uint64_t x = 88172645463325252ULL, sum = 0;
  for (long i = 0; i < (long)WORK * (long)SCALE; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sum += x >> 60;
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
