#define _GNU_SOURCE
#include "CLV2Shim.h"
#include "CCoreShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    LV2_Log_Log feature;
    char *prefix;
    uint32_t urid_error, urid_warning, urid_trace;
    int show_trace;
    uint64_t suppressed;
    /* The last warning or error, for a host that asks why something the
       plugin was given did not take; guarded by `lock` (never taken on a
       realtime thread: messages from there are suppressed before it). */
    pthread_mutex_t lock;
    uint64_t problems;
    char last_problem[512];
} FxhostLog;

static int fxhost_log_vprintf(LV2_Log_Handle handle, LV2_URID type,
                              const char *fmt, va_list ap) {
    FxhostLog *log = (FxhostLog *)handle;
    if (fxhost_in_realtime_section() || (type == log->urid_trace && !log->show_trace)) {
        __atomic_fetch_add(&log->suppressed, 1, __ATOMIC_RELAXED);
        return 0;
    }
    const char *level = type == log->urid_error     ? "error: "
                        : type == log->urid_warning ? "warning: "
                                                    : "";
    if (type == log->urid_error || type == log->urid_warning) {
        va_list copy;
        va_copy(copy, ap);
        pthread_mutex_lock(&log->lock);
        vsnprintf(log->last_problem, sizeof log->last_problem, fmt, copy);
        log->problems += 1;
        pthread_mutex_unlock(&log->lock);
        va_end(copy);
    }
    fprintf(stderr, "%s: %s", log->prefix, level);
    return vfprintf(stderr, fmt, ap);
}

static int fxhost_log_printf(LV2_Log_Handle handle, LV2_URID type,
                             const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int result = fxhost_log_vprintf(handle, type, fmt, ap);
    va_end(ap);
    return result;
}

LV2_Log_Log *fxhost_log_create(const char *prefix, uint32_t urid_error,
                               uint32_t urid_warning, uint32_t urid_trace) {
    FxhostLog *log = calloc(1, sizeof(FxhostLog));
    if (log == NULL) return NULL;
    log->prefix = strdup(prefix ? prefix : "plugin");
    log->urid_error = urid_error;
    log->urid_warning = urid_warning;
    log->urid_trace = urid_trace;
    log->show_trace = getenv("FXHOST_LV2_TRACE") != NULL;
    log->feature.handle = log;
    log->feature.printf = fxhost_log_printf;
    log->feature.vprintf = fxhost_log_vprintf;
    pthread_mutex_init(&log->lock, NULL);
    return &log->feature;
}

void fxhost_log_destroy(LV2_Log_Log *feature) {
    if (feature == NULL) return;
    FxhostLog *log = (FxhostLog *)feature->handle;
    pthread_mutex_destroy(&log->lock);
    free(log->prefix);
    free(log);
}

uint64_t fxhost_log_suppressed(const LV2_Log_Log *feature) {
    return feature ? __atomic_load_n(&((const FxhostLog *)feature->handle)->suppressed, __ATOMIC_RELAXED) : 0;
}

uint64_t fxhost_log_last_problem(const LV2_Log_Log *feature, char *text, size_t size) {
    if (feature == NULL) return 0;
    FxhostLog *log = (FxhostLog *)feature->handle;
    pthread_mutex_lock(&log->lock);
    uint64_t problems = log->problems;
    if (size > 0) snprintf(text, size, "%s", log->last_problem);
    pthread_mutex_unlock(&log->lock);
    return problems;
}

const char *fxhost_shared_object_file(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0') return NULL;
    return info.dli_fname;
}
