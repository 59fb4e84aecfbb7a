#ifndef FXHOST_CCORESHIM_H
#define FXHOST_CCORESHIM_H

/* What HostCore needs from C: no JACK or LV2 header here, so the core
 * builds and links without either library. */

/// Marks the calling thread's realtime section (the JACK process callback
/// or a render worker). Inside it, RealtimeSanitizer checks every call when
/// its runtime is linked (the hooks are weak: no-ops otherwise), and the
/// LV2 log feature does not print (stdio may lock or block) but counts what
/// it drops.
void fxhost_realtime_enter(void);
void fxhost_realtime_exit(void);
/// 1 when the calling thread is inside a realtime section.
int fxhost_in_realtime_section(void);
/// 1 when the sanitizer runtime is linked into this process.
int fxhost_rtsan_available(void);

/// Names the calling thread for `top -H` and debuggers (Linux keeps 15
/// bytes). pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc lacks.
void fxhost_name_this_thread(const char *name);

/// Tells the core a thread is spin-waiting (x86 `pause`), so the wait
/// costs less power and yields the core's pipeline to its sibling thread.
static inline void fxhost_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/// Renames `from` to `to` unless `to` exists (then -1 with errno EEXIST),
/// atomically: renameat2's RENAME_NOREPLACE, or link and unlink where the
/// file system lacks it. 0 on success, -1 with errno otherwise.
int fxhost_rename_noreplace(const char *from, const char *to);

#include <spawn.h>
/// Adds "close every descriptor from `from` on" to a spawn's file actions
/// (glibc's posix_spawn_file_actions_addclosefrom_np, which needs
/// _GNU_SOURCE). 0 on success, an errno value otherwise.
int fxhost_spawn_close_from(posix_spawn_file_actions_t *actions, int from);
/* pipe2(O_CLOEXEC): both ends close-on-exec from the start, so no child
 * started meanwhile by another thread inherits them. */
int fxhost_pipe_cloexec(int descriptors[2]);
/* This process gets SIGKILL when the thread that started it ends (prctl's
 * PR_SET_PDEATHSIG); 0, or -1 when that parent has already gone. */
int fxhost_die_with_parent(int parent);

/* An anonymous shared-memory file (memfd), close-on-exec; -1 with errno on failure. */
int fxhost_shared_memory_file(const char *name);

#include "CrashReport.h"

#endif
