// The stop handler: async-signal-safe, so written in C against the system headers.
#define _GNU_SOURCE  // pipe2
#include "CPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal = 0;
static int wake_pipe[2] = {-1, -1};
static pthread_t owner;

static void on_stop(int number) {
  int saved = errno;
  if (stop_signal == 0) stop_signal = number;
  if (wake_pipe[1] >= 0) {
    char byte = (char)number;
    ssize_t ignored = write(wake_pipe[1], &byte, 1);
    (void)ignored;
  }
  // A process-directed signal may land on any thread: the owner's blocking call must see it.
  if (!pthread_equal(pthread_self(), owner)) pthread_kill(owner, number);
  errno = saved;
}

int marquee_install_stop_handler(const int *signals, int count) {
  owner = pthread_self();
  if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC) == 0) {
    // The handler must never block on a full pipe.
    fcntl(wake_pipe[1], F_SETFL, fcntl(wake_pipe[1], F_GETFL) | O_NONBLOCK);
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_stop;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < count; i++) sigaddset(&action.sa_mask, signals[i]);
  action.sa_flags = 0;
  sigset_t unblock;
  sigemptyset(&unblock);
  for (int i = 0; i < count; i++) {
    sigaction(signals[i], &action, NULL);
    sigaddset(&unblock, signals[i]);
  }
  // A parent may have started us with these blocked; they must reach us.
  pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
  return wake_pipe[0];
}

int marquee_stop_signal(void) { return stop_signal; }

static volatile sig_atomic_t resizes = 0;
static volatile sig_atomic_t hangups = 0;

// SIGWINCH and SIGHUP-as-reload: counted, and the stop handler's pipe woken, so a sleeping
// player redraws or a server reloads. Neither stops anything.
static void on_counted(int number) {
  int saved = errno;
  if (number == SIGWINCH) resizes = resizes + 1;
  else hangups = hangups + 1;
  if (wake_pipe[1] >= 0) {
    char byte = (char)number;
    ssize_t ignored = write(wake_pipe[1], &byte, 1);
    (void)ignored;
  }
  errno = saved;
}

static void install_counted(int number) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_counted;
  sigemptyset(&action.sa_mask);
  // Restarted: a resize or a reload request is not a reason for a write or an open to fail.
  action.sa_flags = SA_RESTART;
  sigaction(number, &action, NULL);
}

void marquee_install_resize_handler(void) { install_counted(SIGWINCH); }

unsigned long marquee_resize_count(void) { return (unsigned long)resizes; }

void marquee_install_hangup_handler(void) { install_counted(SIGHUP); }

unsigned long marquee_hangup_count(void) { return (unsigned long)hangups; }
