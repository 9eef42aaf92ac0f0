#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>

#include "CPlatform.h"

int marquee_pin_calling_thread(int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) return -1;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set);
}

int marquee_name_calling_thread(const char *name) {
  return prctl(PR_SET_NAME, name, 0, 0, 0);
}
