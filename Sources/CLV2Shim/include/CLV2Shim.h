#ifndef FXHOST_CLV2SHIM_H
#define FXHOST_CLV2SHIM_H

#include <lv2/log/log.h>
#include <stddef.h>
#include <stdint.h>

/// The LV2 log feature's printf/vprintf are variadic, so they live here.
/// Messages go to stderr prefixed with `prefix`; `urid_error`/`urid_warning`
/// let the prefix name the level. The returned object is freed with
/// fxhost_log_destroy.
LV2_Log_Log *fxhost_log_create(const char *prefix, uint32_t urid_error,
                               uint32_t urid_warning, uint32_t urid_trace);
void fxhost_log_destroy(LV2_Log_Log *log);
/// Lines suppressed so far: trace level unless FXHOST_LV2_TRACE is set, and
/// anything logged from inside a realtime section (CCoreShim's).
uint64_t fxhost_log_suppressed(const LV2_Log_Log *log);
/// How many warnings and errors the plugin has logged so far (outside
/// realtime sections), and the last one's text, cut to `size` bytes.
uint64_t fxhost_log_last_problem(const LV2_Log_Log *log, char *text, size_t size);

/// The file of the shared object that holds `address` (a function's code),
/// as the dynamic linker opened it (often a soname link such as
/// liblilv-0.so.0), or NULL when no loaded object holds it. dladdr needs
/// _GNU_SOURCE, which Swift's Glibc lacks.
const char *fxhost_shared_object_file(const void *address);

#endif
