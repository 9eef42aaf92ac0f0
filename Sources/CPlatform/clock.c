#include "CPlatform.h"

#include <sys/timerfd.h>
#include <sys/timex.h>
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

int marquee_clock_synchronized(void) {
  struct timex state = {0};
  int result = adjtimex(&state);
  return result >= 0 && result != TIME_ERROR && !(state.status & STA_UNSYNC);
}

int marquee_clock_set_notice_arm(int descriptor) {
  struct itimerspec value = {0};
  value.it_value.tv_sec = INT_MAX;
  return timerfd_settime(descriptor, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &value, 0);
}

int marquee_clock_set_notice(void) {
  int descriptor = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
  if (descriptor < 0) return -1;
  if (marquee_clock_set_notice_arm(descriptor) != 0) {
    int saved = errno;
    close(descriptor);
    errno = saved;
    return -1;
  }
  return descriptor;
}
