#ifndef FXHOST_CSHIM_H
#define FXHOST_CSHIM_H

#include <jack/jack.h>
#include <lv2/log/log.h>
#include <stdint.h>

/// jack_client_open is variadic; this opens a client on a named server (or the
/// default when server_name is NULL) and never starts a server by itself.
jack_client_t *fxhost_jack_client_open(const char *client_name,
                                       const char *server_name,
                                       jack_status_t *status);

/// Marks the calling thread's realtime section (the JACK process callback).
/// Inside it, RealtimeSanitizer checks every call when its runtime is linked
/// (the hooks are weak: no-ops otherwise), and the LV2 log feature does not
/// print (stdio may lock or block) but counts what it drops.
void fxhost_realtime_enter(void);
void fxhost_realtime_exit(void);
/// 1 when the sanitizer runtime is linked into this process.
int fxhost_rtsan_available(void);

/// The LV2 log feature's printf/vprintf are variadic, so they live here.
/// Messages go to stderr prefixed with `prefix`; `urid_error`/`urid_warning`
/// let the prefix name the level. The returned object is freed with
/// fxhost_log_destroy.
LV2_Log_Log *fxhost_log_create(const char *prefix, uint32_t urid_error,
                               uint32_t urid_warning, uint32_t urid_trace);
void fxhost_log_destroy(LV2_Log_Log *log);
/// Lines suppressed so far: trace level unless FXHOST_LV2_TRACE is set, and
/// anything logged from inside a realtime section.
uint64_t fxhost_log_suppressed(const LV2_Log_Log *log);

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

#endif
