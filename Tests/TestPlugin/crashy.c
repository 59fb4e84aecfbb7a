/* Plugins that fail on purpose, for tests only: each passes its input
 * through (out = in) until it fails in one LV2 call, the way a broken
 * third-party plugin does. `after` (a control port) is the number of
 * whole run() calls that pass before the failure.
 *   crash-run          segfaults in run() after `after` blocks
 *   abort-instantiate  calls abort() in instantiate()
 *   spin-run           loops forever in run() after `after` blocks
 *   crash-work         segfaults in its worker's work(), asked from run()
 *                      after `after` blocks
 *   overflow-run       overflows its stack in run() after `after` blocks
 *   stall-run          sleeps 100 ms once in run() after `after` blocks, so
 *                      the server plays cycles without the host (an xrun)
 * Their bundle is written next to the built library by the tests (see
 * TestSupport's CrashingPlugins). */
#include <lv2/core/lv2.h>
#include <lv2/worker/worker.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crashy.h"

typedef struct {
    const float *input;
    float *output;
    const float *after;
    LV2_Worker_Schedule *schedule;
    unsigned long blocks;
} Crashy;

/* A store through a null pointer the compiler cannot prove null: SIGSEGV. */
static void segfault(void) {
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
}

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                              const LV2_Feature *const *features) {
    (void)rate; (void)bundle;
    if (strcmp(descriptor->URI, FXHOST_ABORT_INSTANTIATE_URI) == 0) abort();
    Crashy *crashy = calloc(1, sizeof(Crashy));
    if (crashy == NULL) return NULL;
    for (int i = 0; features && features[i]; ++i)
        if (strcmp(features[i]->URI, LV2_WORKER__schedule) == 0) crashy->schedule = features[i]->data;
    if (strcmp(descriptor->URI, FXHOST_CRASH_WORK_URI) == 0 && crashy->schedule == NULL) {
        free(crashy);
        return NULL;
    }
    return crashy;
}

static void connect_port(LV2_Handle instance, uint32_t port, void *data) {
    Crashy *crashy = instance;
    switch (port) {
    case 0: crashy->input = data; break;
    case 1: crashy->output = data; break;
    case 2: crashy->after = data; break;
    }
}

static void activate(LV2_Handle instance) { ((Crashy *)instance)->blocks = 0; }

/* True once `after` whole blocks have passed. */
static int due(Crashy *crashy) {
    const float after = crashy->after ? *crashy->after : 0;
    return (float)crashy->blocks >= after;
}

static void pass(Crashy *crashy, uint32_t frames) {
    for (uint32_t i = 0; i < frames; ++i) crashy->output[i] = crashy->input[i];
    crashy->blocks += 1;
}

static void run_crash(LV2_Handle instance, uint32_t frames) {
    Crashy *crashy = instance;
    if (due(crashy)) segfault();
    pass(crashy, frames);
}

static void run_spin(LV2_Handle instance, uint32_t frames) {
    Crashy *crashy = instance;
    if (due(crashy)) {
        volatile int forever = 1;
        while (forever) {}
    }
    pass(crashy, frames);
}

static void run_stall(LV2_Handle instance, uint32_t frames) {
    Crashy *crashy = instance;
    if (due(crashy) && crashy->blocks == (unsigned long)*crashy->after) {
        const struct timespec pause = {0, 100 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    pass(crashy, frames);
}

/* Recursion with a page of stack per call: the stack runs out long before
 * the bound, which only keeps the compiler from calling it infinite. */
static int recurse(volatile const char *caller, unsigned long depth) {
    volatile char frame[4096];
    frame[0] = caller ? caller[0] : 1;
    if (depth > 100000000UL) return frame[0];
    return recurse(frame, depth + 1) + frame[0];
}

static void run_overflow(LV2_Handle instance, uint32_t frames) {
    Crashy *crashy = instance;
    if (due(crashy)) crashy->output[0] = (float)recurse(NULL, 0);
    pass(crashy, frames);
}

static void run_work(LV2_Handle instance, uint32_t frames) {
    Crashy *crashy = instance;
    if (due(crashy) && crashy->blocks == (unsigned long)*crashy->after) {
        const int question = 1;
        crashy->schedule->schedule_work(crashy->schedule->handle, sizeof question, &question);
    }
    pass(crashy, frames);
}

static LV2_Worker_Status work(LV2_Handle instance, LV2_Worker_Respond_Function respond,
                              LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    (void)instance; (void)respond; (void)handle; (void)size; (void)data;
    segfault();
    return LV2_WORKER_SUCCESS;
}

static LV2_Worker_Status work_response(LV2_Handle instance, uint32_t size, const void *body) {
    (void)instance; (void)size; (void)body;
    return LV2_WORKER_SUCCESS;
}

static const void *worker_extension(const char *uri) {
    static const LV2_Worker_Interface worker = {work, work_response, NULL};
    return strcmp(uri, LV2_WORKER__interface) == 0 ? &worker : NULL;
}

static const void *no_extension(const char *uri) { (void)uri; return NULL; }

static void cleanup(LV2_Handle instance) { free(instance); }

static const LV2_Descriptor descriptors[] = {
    {FXHOST_CRASH_RUN_URI, instantiate, connect_port, activate, run_crash, NULL, cleanup, no_extension},
    {FXHOST_ABORT_INSTANTIATE_URI, instantiate, connect_port, activate, run_crash, NULL, cleanup, no_extension},
    {FXHOST_SPIN_RUN_URI, instantiate, connect_port, activate, run_spin, NULL, cleanup, no_extension},
    {FXHOST_CRASH_WORK_URI, instantiate, connect_port, activate, run_work, NULL, cleanup, worker_extension},
    {FXHOST_OVERFLOW_RUN_URI, instantiate, connect_port, activate, run_overflow, NULL, cleanup, no_extension},
    {FXHOST_STALL_RUN_URI, instantiate, connect_port, activate, run_stall, NULL, cleanup, no_extension},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
