/* fxhost's probe plugin, for tests only: an LV2 effect whose output shows
 * what the host did. out = in + freeWheeling port + the value the worker
 * answered. run() sends the worker one request (0.5) on its first block
 * after activation; the answer arrives through work_response, which a host
 * delivers after run() returns, so from the second block on the output
 * includes it when the worker runs synchronously (offline, freewheel). */
#include <lv2/core/lv2.h>
#include <lv2/worker/worker.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

typedef struct {
    const float *input;
    float *output;
    const float *free_wheeling;
    LV2_Worker_Schedule *schedule;
    float answer;
    int asked;
} Probe;

#ifdef FXHOST_PROBE_UNLOADABLE
/* Defined by no library: built with FXHOST_PROBE_UNLOADABLE, the plugin's
 * library fails to load (undefined symbol), as some packaged plugins do. */
extern void fxhost_probe_symbol_no_library_defines(void);
#endif

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                              const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
#ifdef FXHOST_PROBE_UNLOADABLE
    fxhost_probe_symbol_no_library_defines();
#endif
    LV2_Worker_Schedule *schedule = NULL;
    for (int i = 0; features && features[i]; ++i)
        if (strcmp(features[i]->URI, LV2_WORKER__schedule) == 0) schedule = features[i]->data;
    if (schedule == NULL) return NULL;
    Probe *probe = calloc(1, sizeof(Probe));
    if (probe) probe->schedule = schedule;
    return probe;
}

static void connect_port(LV2_Handle instance, uint32_t port, void *data) {
    Probe *probe = instance;
    switch (port) {
    case 0: probe->input = data; break;
    case 1: probe->output = data; break;
    case 2: probe->free_wheeling = data; break;
    }
}

static void activate(LV2_Handle instance) {
    Probe *probe = instance;
    probe->answer = 0;
    probe->asked = 0;
}

static void run(LV2_Handle instance, uint32_t frames) {
    Probe *probe = instance;
    if (!probe->asked) {
        const float question = 0.5f;
        probe->schedule->schedule_work(probe->schedule->handle, sizeof question, &question);
        probe->asked = 1;
    }
    const float offset = (probe->free_wheeling ? *probe->free_wheeling : 0) + probe->answer;
    for (uint32_t i = 0; i < frames; ++i) probe->output[i] = probe->input[i] + offset;
}

static LV2_Worker_Status work(LV2_Handle instance, LV2_Worker_Respond_Function respond,
                              LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    (void)instance;
    return respond(handle, size, data); /* the answer is the question */
}

static LV2_Worker_Status work_response(LV2_Handle instance, uint32_t size, const void *body) {
    Probe *probe = instance;
    if (size == sizeof(float)) memcpy(&probe->answer, body, sizeof(float));
    return LV2_WORKER_SUCCESS;
}

static const void *extension_data(const char *uri) {
    static const LV2_Worker_Interface worker = {work, work_response, NULL};
    return strcmp(uri, LV2_WORKER__interface) == 0 ? &worker : NULL;
}

static void cleanup(LV2_Handle instance) { free(instance); }

static const LV2_Descriptor descriptor = {
    FXHOST_PROBE_URI, instantiate, connect_port, activate, run, NULL, cleanup, extension_data,
};

const LV2_Descriptor *fxhost_probe_blocks_descriptor(void); /* probe_blocks.c */

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    switch (index) {
    case 0: return &descriptor;
    case 1: return fxhost_probe_blocks_descriptor();
    default: return NULL;
    }
}
