/* A peak hold, for tests only: out = the largest |in| it has seen, sample
 * by sample, from when it was made (or its state restored). The held value
 * is state no port shows, saved and restored through LV2 state:interface
 * (key urn:fxhost:test:peak-hold#held, an atom:Float). save() may run
 * beside run(), as LV2 allows: the value crosses in an atomic. Two twins
 * segfault: peak-hold-crash-save in save(), peak-hold-crash-restore in
 * restore(). Their
 * bundle is written by the tests next to the built library (see
 * TestSupport's PeakHoldPlugin). */
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peak_hold.h"

typedef struct {
    const float *input;
    float *output;
    /* The held value's bits: a 32-bit atomic is lock-free, a float one need not be. */
    _Atomic uint32_t held;
    LV2_URID held_key;
    LV2_URID float_type;
} PeakHold;

static float load_held(PeakHold *hold) {
    uint32_t bits = atomic_load_explicit(&hold->held, memory_order_relaxed);
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static void store_held(PeakHold *hold, float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    atomic_store_explicit(&hold->held, bits, memory_order_relaxed);
}

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                              const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    const LV2_URID_Map *map = NULL;
    for (int i = 0; features && features[i]; ++i)
        if (strcmp(features[i]->URI, LV2_URID__map) == 0) map = features[i]->data;
    if (map == NULL) return NULL;
    PeakHold *hold = calloc(1, sizeof(PeakHold));
    if (hold == NULL) return NULL;
    store_held(hold, 0);
    hold->held_key = map->map(map->handle, FXHOST_PEAK_HOLD_HELD_KEY);
    hold->float_type = map->map(map->handle, LV2_ATOM__Float);
    return hold;
}

static void connect_port(LV2_Handle instance, uint32_t port, void *data) {
    PeakHold *hold = instance;
    switch (port) {
    case 0: hold->input = data; break;
    case 1: hold->output = data; break;
    }
}

static void run(LV2_Handle instance, uint32_t frames) {
    PeakHold *hold = instance;
    float held = load_held(hold);
    for (uint32_t i = 0; i < frames; ++i) {
        const float level = fabsf(hold->input[i]);
        if (level > held && isfinite(level)) held = level;
        hold->output[i] = held;
    }
    store_held(hold, held);
}

static LV2_State_Status save(LV2_Handle instance, LV2_State_Store_Function store, LV2_State_Handle handle,
                             uint32_t flags, const LV2_Feature *const *features) {
    (void)flags; (void)features;
    PeakHold *hold = instance;
    const float held = load_held(hold);
    return store(handle, hold->held_key, &held, sizeof held, hold->float_type,
                 LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
}

/* A store through a null pointer the compiler cannot prove null: SIGSEGV. */
static LV2_State_Status save_crash(LV2_Handle instance, LV2_State_Store_Function store, LV2_State_Handle handle,
                                   uint32_t flags, const LV2_Feature *const *features) {
    (void)instance; (void)store; (void)handle; (void)flags; (void)features;
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
    return LV2_STATE_ERR_UNKNOWN;
}

static LV2_State_Status restore_crash(LV2_Handle instance, LV2_State_Retrieve_Function retrieve,
                                      LV2_State_Handle handle, uint32_t flags, const LV2_Feature *const *features) {
    (void)instance; (void)retrieve; (void)handle; (void)flags; (void)features;
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
    return LV2_STATE_ERR_UNKNOWN;
}

static LV2_State_Status restore(LV2_Handle instance, LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle,
                                uint32_t flags, const LV2_Feature *const *features) {
    (void)flags; (void)features;
    PeakHold *hold = instance;
    size_t size = 0;
    uint32_t type = 0, value_flags = 0;
    const void *value = retrieve(handle, hold->held_key, &size, &type, &value_flags);
    if (value == NULL || size != sizeof(float) || type != hold->float_type) return LV2_STATE_ERR_NO_PROPERTY;
    float held;
    memcpy(&held, value, sizeof held);
    store_held(hold, isfinite(held) ? fabsf(held) : 0);
    return LV2_STATE_SUCCESS;
}

static const void *extension_data(const char *uri) {
    static const LV2_State_Interface state = {save, restore};
    return strcmp(uri, LV2_STATE__interface) == 0 ? &state : NULL;
}

static const void *crash_save_extension_data(const char *uri) {
    static const LV2_State_Interface state = {save_crash, restore};
    return strcmp(uri, LV2_STATE__interface) == 0 ? &state : NULL;
}

static const void *crash_restore_extension_data(const char *uri) {
    static const LV2_State_Interface state = {save, restore_crash};
    return strcmp(uri, LV2_STATE__interface) == 0 ? &state : NULL;
}

static void cleanup(LV2_Handle instance) { free(instance); }

static const LV2_Descriptor descriptors[] = {
    {FXHOST_PEAK_HOLD_URI, instantiate, connect_port, NULL, run, NULL, cleanup, extension_data},
    {FXHOST_PEAK_HOLD_CRASH_SAVE_URI, instantiate, connect_port, NULL, run, NULL, cleanup, crash_save_extension_data},
    {FXHOST_PEAK_HOLD_CRASH_RESTORE_URI, instantiate, connect_port, NULL, run, NULL, cleanup, crash_restore_extension_data},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
