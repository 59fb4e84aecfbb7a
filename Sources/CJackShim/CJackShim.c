#include "CJackShim.h"

jack_client_t *fxhost_jack_client_open(const char *client_name,
                                       const char *server_name,
                                       jack_status_t *status) {
    jack_options_t options = JackNoStartServer;
    if (server_name != NULL) {
        options |= JackServerName;
        return jack_client_open(client_name, options, status, server_name);
    }
    return jack_client_open(client_name, options, status);
}
