/* fxhost's block-length probe, for tests only: out = in, and its latency
 * port reports the nominal block length it was given, at instantiate()
 * (options) or later through options:interface's set(), which refuses a
 * length above FXHOST_PROBE_BLOCKS_LIMIT. So the latency a host measures
 * says which block length the plugin was last told. */
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

typedef struct {
    const float *input;
    float *output;
    float *latency;
    LV2_URID nominal_key, int_type;
    int32_t nominal;
} BlockProbe;

/* Reads the nominal block length from `options`; 0 when absent, -1 when refused. */
static int32_t nominal_length(const BlockProbe *probe, const LV2_Options_Option *options) {
    int32_t found = 0;
    for (int i = 0; options && options[i].key; ++i) {
        if (options[i].key != probe->nominal_key || options[i].context != LV2_OPTIONS_INSTANCE) continue;
        if (options[i].type != probe->int_type || options[i].size != sizeof(int32_t)) return -1;
        found = *(const int32_t *)options[i].value;
        if (found < 1 || found > FXHOST_PROBE_BLOCKS_LIMIT) return -1;
    }
    return found;
}

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                              const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    LV2_URID_Map *map = NULL;
    const LV2_Options_Option *options = NULL;
    for (int i = 0; features && features[i]; ++i) {
        if (strcmp(features[i]->URI, LV2_URID__map) == 0) map = features[i]->data;
        if (strcmp(features[i]->URI, LV2_OPTIONS__options) == 0) options = features[i]->data;
    }
    if (map == NULL || options == NULL) return NULL;
    BlockProbe *probe = calloc(1, sizeof(BlockProbe));
    if (probe == NULL) return NULL;
    probe->nominal_key = map->map(map->handle, LV2_BUF_SIZE__nominalBlockLength);
    probe->int_type = map->map(map->handle, LV2_ATOM__Int);
    /* At instantiate the limit does not apply: any length given is reported. */
    for (int i = 0; options[i].key; ++i)
        if (options[i].key == probe->nominal_key && options[i].type == probe->int_type)
            probe->nominal = *(const int32_t *)options[i].value;
    return probe;
}

static void connect_port(LV2_Handle instance, uint32_t port, void *data) {
    BlockProbe *probe = instance;
    switch (port) {
    case 0: probe->input = data; break;
    case 1: probe->output = data; break;
    case 2: probe->latency = data; break;
    }
}

static void run(LV2_Handle instance, uint32_t frames) {
    BlockProbe *probe = instance;
    if (probe->latency) *probe->latency = (float)probe->nominal;
    if (probe->output != probe->input) memcpy(probe->output, probe->input, frames * sizeof(float));
}

static uint32_t options_get(LV2_Handle instance, LV2_Options_Option *options) {
    (void)instance; (void)options;
    return LV2_OPTIONS_ERR_BAD_KEY;
}

static uint32_t options_set(LV2_Handle instance, const LV2_Options_Option *options) {
    BlockProbe *probe = instance;
    int32_t nominal = nominal_length(probe, options);
    if (nominal < 0) return LV2_OPTIONS_ERR_BAD_VALUE;
    if (nominal > 0) probe->nominal = nominal;
    return LV2_OPTIONS_SUCCESS;
}

static const void *extension_data(const char *uri) {
    static const LV2_Options_Interface options = {options_get, options_set};
    return strcmp(uri, LV2_OPTIONS__interface) == 0 ? &options : NULL;
}

static void cleanup(LV2_Handle instance) { free(instance); }

static const LV2_Descriptor descriptor = {
    FXHOST_PROBE_BLOCKS_URI, instantiate, connect_port, NULL, run, NULL, cleanup, extension_data,
};

const LV2_Descriptor *fxhost_probe_blocks_descriptor(void) { return &descriptor; }
