/*
 * pairbench bench program: a deterministic, CPU-bound loop whose amount of work is fixed at
 * compile time, so that "1% slower" is a real binary doing 1% more work.
 *
 *   cc -O2 -DWORK_PERMILLE=1010 -o prog work.c    # 1.0% more iterations than WORK_PERMILLE=1000
 *
 * The loop is a serial chain of xorshift64 steps mixed into a checksum (no vectorization, no
 * closed form, no memory traffic): its time is proportional to the iteration count. BASE_ITERS
 * sets the baseline's run time (about 30 ms of CPU on a 2020s x86 core); the checksum is printed so
 * that the compiler cannot drop the loop.
 */
#include <stdint.h>
#include <stdio.h>

#ifndef WORK_PERMILLE
#define WORK_PERMILLE 1000
#endif
#ifndef BASE_ITERS
#define BASE_ITERS 13000000ULL
#endif

int main(void) {
  const uint64_t n = (uint64_t)BASE_ITERS * (uint64_t)WORK_PERMILLE / 1000u;
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc += (x * 0xD6E8FEB86659FD93ULL) >> 7;
  }
  printf("%llu\n", (unsigned long long)acc);
  return 0;
}
