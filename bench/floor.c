/* The benchmark's floor: a bare loop that reads a file with libsndfile,
 * calls the same LV2 plugins' run() in a chain and writes the result —
 * nothing else. fxhost's render is compared against this.
 *
 * usage: floor IN OUT BLOCK URI [symbol=value]... [! URI [symbol=value]...]...
 * Only plugins that need no host features are accepted (the benchmark's
 * chain is chosen so ecasound can run it too). */
#include <lilv/lilv.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLUGINS 16
#define CHANNELS 2

typedef struct {
    LilvInstance *instance;
    float *controls;
    uint32_t audio_in[CHANNELS], audio_out[CHANNELS];
    int inputs, outputs;
} Stage;

static void fail(const char *message, const char *detail) {
    fprintf(stderr, "floor: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

int main(int argc, char **argv) {
    if (argc < 5) fail("usage: floor IN OUT BLOCK URI [symbol=value]... [! URI ...]", NULL);
    const int block = atoi(argv[3]);
    SF_INFO info = {0};
    SNDFILE *in = sf_open(argv[1], SFM_READ, &info);
    if (!in) fail("cannot open input", sf_strerror(NULL));
    if (info.channels != CHANNELS) fail("the input must be stereo", NULL);
    SF_INFO out_info = {.samplerate = info.samplerate, .channels = CHANNELS,
                        .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT};
    SNDFILE *out = sf_open(argv[2], SFM_WRITE, &out_info);
    if (!out) fail("cannot open output", sf_strerror(NULL));

    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    const LilvPlugins *all = lilv_world_get_all_plugins(world);
    LilvNode *audio = lilv_new_uri(world, LILV_URI_AUDIO_PORT);
    LilvNode *control = lilv_new_uri(world, LILV_URI_CONTROL_PORT);
    LilvNode *input = lilv_new_uri(world, LILV_URI_INPUT_PORT);

    Stage stages[MAX_PLUGINS];
    int count = 0;
    for (int arg = 4; arg < argc; ++arg) {
        if (strcmp(argv[arg], "!") == 0) continue;
        if (count == MAX_PLUGINS) fail("too many plugins", NULL);
        LilvNode *uri = lilv_new_uri(world, argv[arg]);
        const LilvPlugin *plugin = lilv_plugins_get_by_uri(all, uri);
        if (!plugin) fail("no such plugin", argv[arg]);
        Stage *stage = &stages[count++];
        memset(stage, 0, sizeof *stage);
        stage->instance = lilv_plugin_instantiate(plugin, info.samplerate, NULL);
        if (!stage->instance) fail("cannot instantiate", argv[arg]);
        const uint32_t ports = lilv_plugin_get_num_ports(plugin);
        stage->controls = calloc(ports, sizeof(float));
        float *defaults = calloc(ports, sizeof(float));
        lilv_plugin_get_port_ranges_float(plugin, NULL, NULL, defaults);
        for (uint32_t index = 0; index < ports; ++index) {
            const LilvPort *port = lilv_plugin_get_port_by_index(plugin, index);
            if (lilv_port_is_a(plugin, port, control)) {
                stage->controls[index] = defaults[index] == defaults[index] ? defaults[index] : 0;
                lilv_instance_connect_port(stage->instance, index, &stage->controls[index]);
            } else if (lilv_port_is_a(plugin, port, audio)) {
                if (lilv_port_is_a(plugin, port, input)) stage->audio_in[stage->inputs++] = index;
                else stage->audio_out[stage->outputs++] = index;
            }
        }
        free(defaults);
        if (stage->inputs != CHANNELS || stage->outputs != CHANNELS) fail("the floor takes stereo plugins only", argv[arg]);
        for (; arg + 1 < argc && strcmp(argv[arg + 1], "!") != 0; ++arg) {
            char *setting = argv[arg + 1], *equals = strchr(setting, '=');
            if (!equals) fail("expected symbol=value", setting);
            *equals = '\0';
            LilvNode *symbol = lilv_new_string(world, setting);
            const LilvPort *port = lilv_plugin_get_port_by_symbol(plugin, symbol);
            if (!port) fail("no such port", setting);
            stage->controls[lilv_port_get_index(plugin, port)] = strtof(equals + 1, NULL);
            lilv_node_free(symbol);
        }
        lilv_node_free(uri);
        lilv_instance_activate(stage->instance);
    }

    /* Two planar stereo buffers, ping-ponged along the chain. */
    float *planar[2][CHANNELS];
    for (int b = 0; b < 2; ++b)
        for (int c = 0; c < CHANNELS; ++c) planar[b][c] = calloc(block, sizeof(float));
    float *interleaved = calloc((size_t)block * CHANNELS, sizeof(float));
    for (int s = 0; s < count; ++s)
        for (int c = 0; c < CHANNELS; ++c) {
            lilv_instance_connect_port(stages[s].instance, stages[s].audio_in[c], planar[s % 2][c]);
            lilv_instance_connect_port(stages[s].instance, stages[s].audio_out[c], planar[(s + 1) % 2][c]);
        }
    sf_count_t got;
    while ((got = sf_readf_float(in, interleaved, block)) > 0) {
        for (sf_count_t f = 0; f < got; ++f)
            for (int c = 0; c < CHANNELS; ++c) planar[0][c][f] = interleaved[f * CHANNELS + c];
        for (int s = 0; s < count; ++s) lilv_instance_run(stages[s].instance, (uint32_t)got);
        for (sf_count_t f = 0; f < got; ++f)
            for (int c = 0; c < CHANNELS; ++c) interleaved[f * CHANNELS + c] = planar[count % 2][c][f];
        sf_writef_float(out, interleaved, got);
    }
    sf_write_sync(out); /* fxhost syncs before renaming its output into place */
    sf_close(out);
    sf_close(in);
    for (int s = 0; s < count; ++s) {
        lilv_instance_deactivate(stages[s].instance);
        lilv_instance_free(stages[s].instance);
        free(stages[s].controls);
    }
    lilv_world_free(world);
    return 0;
}
