#define _GNU_SOURCE
#include "CCoreShim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void __rtsan_realtime_enter(void) __attribute__((weak));
void __rtsan_realtime_exit(void) __attribute__((weak));

/* Set while this thread is inside a realtime section. The shim is linked
 * into the executable, so this is initial-exec TLS: no allocation on use. */
static __thread int realtime_section;

void fxhost_realtime_enter(void) {
    realtime_section = 1;
    if (__rtsan_realtime_enter) __rtsan_realtime_enter();
}

void fxhost_realtime_exit(void) {
    if (__rtsan_realtime_exit) __rtsan_realtime_exit();
    realtime_section = 0;
}

int fxhost_in_realtime_section(void) { return realtime_section; }

int fxhost_rtsan_available(void) { return __rtsan_realtime_enter != NULL; }

void fxhost_name_this_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
}

int fxhost_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    /* A file system without RENAME_NOREPLACE: link() refuses an existing
       name just as atomically. */
    if (link(from, to) != 0) return -1;
    unlink(from);
    return 0;
}

int fxhost_pipe_cloexec(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }

int fxhost_die_with_parent(int parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : -1;
}

int fxhost_shared_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

int fxhost_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
