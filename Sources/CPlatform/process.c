// Starting a helper program, and the private mount namespace it may enter: against the
// system headers, for posix_spawn's file actions and the namespace calls.
#define _GNU_SOURCE  // posix_spawn_file_actions_addclosefrom_np, unshare, CLONE_*
#include "CPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

extern char **environ;

int marquee_spawn(const char *path, char *const arguments[], int output, int errors, int *pid) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  int failure = posix_spawn_file_actions_init(&actions);
  if (failure != 0) return failure;
  failure = posix_spawnattr_init(&attributes);
  if (failure != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return failure;
  }
  // Standard input from /dev/null, the two pipes on 1 and 2, nothing else of the sign's.
  if (failure == 0) failure = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (failure == 0) failure = posix_spawn_file_actions_adddup2(&actions, output, 1);
  if (failure == 0) failure = posix_spawn_file_actions_adddup2(&actions, errors, 2);
  if (failure == 0) failure = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  // Its own process group, every signal unblocked, and the ones a caller may ignore at their
  // default (caught ones are reset by exec): the helper starts as a shell would start it.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  const int ignorable[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM};
  for (size_t index = 0; index < sizeof ignorable / sizeof ignorable[0]; index++) sigaddset(&defaults, ignorable[index]);
  if (failure == 0) failure = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (failure == 0) failure = posix_spawnattr_setpgroup(&attributes, 0);
  if (failure == 0) failure = posix_spawnattr_setsigmask(&attributes, &none);
  if (failure == 0) failure = posix_spawnattr_setsigdefault(&attributes, &defaults);
  pid_t child = 0;
  if (failure == 0) failure = posix_spawn(&child, path, &actions, &attributes, arguments, environ);
  if (failure == 0) *pid = child;
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return failure;
}

/// Writes `text` to the file `path` (a /proc/self map); 0, or -1 with errno set.
static int write_file(const char *path, const char *text) {
  int descriptor = open(path, O_WRONLY | O_CLOEXEC);
  if (descriptor < 0) return -1;
  size_t length = strlen(text);
  ssize_t written = write(descriptor, text, length);
  int saved = errno;
  close(descriptor);
  errno = saved;
  return written == (ssize_t)length ? 0 : -1;
}

int marquee_enter_private_mounts(void) {
  uid_t user = geteuid();
  gid_t group = getegid();
  if (user == 0) {
    if (unshare(CLONE_NEWNS) != 0) return -1;
  } else {
    // A user namespace gives the capability to mount inside it; the user stays who it was.
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return -1;
    char map[64];
    if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) return -1;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)user, (unsigned)user);
    if (write_file("/proc/self/uid_map", map) != 0) return -1;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)group, (unsigned)group);
    if (write_file("/proc/self/gid_map", map) != 0) return -1;
  }
  // What is mounted from here on is this process's alone, never the system's.
  return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

int marquee_bind_mount(const char *source, const char *target) {
  return mount(source, target, NULL, MS_BIND, NULL);
}
