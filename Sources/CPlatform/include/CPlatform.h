#ifndef MARQUEE_CPLATFORM_H
#define MARQUEE_CPLATFORM_H

#include <stdint.h>

/// Stores `value` in the device register at `address`: a volatile store, so the compiler
/// neither drops, merges nor reorders register writes (GPIO set and clear registers mapped
/// from /dev/gpiomem).
static inline void marquee_register_store(volatile uint32_t *address, uint32_t value) {
  *address = value;
}

/// Keeps the calling thread on CPU `cpu` (sched_setaffinity). Returns 0, or -1 with errno set.
int marquee_pin_calling_thread(int cpu);

/// Names the calling thread (PR_SET_NAME: the first 15 bytes), as `top -H` and `ps -L` show it.
/// Returns 0, or -1 with errno set.
int marquee_name_calling_thread(const char *name);

/// Loads the device register at `address` (a volatile load).
static inline uint32_t marquee_register_load(const volatile uint32_t *address) {
  return *address;
}

/// Installs the stop handler for `count` signals: from this moment each of them is caught
/// (not ignored), interrupts blocking system calls (no SA_RESTART), is recorded for
/// marquee_stop_signal(), writes one byte to the returned descriptor, and, when it lands
/// on another thread, is passed on to the thread that installed the handler, so that
/// thread's blocking call returns EINTR. Returns the read end of the wake-up pipe, or -1.
int marquee_install_stop_handler(const int *signals, int count);

/// The first stop signal caught, or 0.
int marquee_stop_signal(void);

/// Catches SIGWINCH (the terminal was resized): each one adds to marquee_resize_count()
/// and writes one byte to the stop handler's wake-up pipe, so a sleeping player redraws.
void marquee_install_resize_handler(void);

/// How many SIGWINCH have been caught.
unsigned long marquee_resize_count(void);

/// Catches SIGHUP as a request to reload (the service-manager convention) instead of a
/// stop: each one adds to marquee_hangup_count() and wakes the stop handler's pipe.
void marquee_install_hangup_handler(void);

/// How many SIGHUP have been caught as reload requests.
unsigned long marquee_hangup_count(void);

/// Whether the kernel's NTP state says the wall clock is synchronized (adjtimex: not
/// TIME_ERROR, STA_UNSYNC clear), as `timedatectl` reports it.
int marquee_clock_synchronized(void);

/// A non-blocking timerfd on CLOCK_REALTIME armed far in the future with
/// TFD_TIMER_CANCEL_ON_SET: it becomes readable when anyone sets the wall clock. Returns
/// the descriptor, or -1 with errno set.
int marquee_clock_set_notice(void);

/// Arms the notice again after it fired. Returns 0, or -1 with errno set.
int marquee_clock_set_notice_arm(int descriptor);

/// Starts `path` with `arguments` (NULL-terminated, the program's name first) and this
/// process's environment: standard input from /dev/null, standard output on `output` and
/// standard error on `errors`, no other descriptor inherited, in its own process group with
/// every signal at its default and none blocked. Returns 0 with `*pid` set, or an errno value.
int marquee_spawn(const char *path, char *const arguments[], int output, int errors, int *pid);

/// Moves the calling process, which must have one thread, into a mount namespace of its own
/// (inside a user namespace of its own when it is not root), with nothing it mounts seen by
/// any other process. Returns 0, or -1 with errno set.
int marquee_enter_private_mounts(void);

/// Binds the file or folder `source` over `target` (inside a private mount namespace).
/// Returns 0, or -1 with errno set.
int marquee_bind_mount(const char *source, const char *target);

#endif
