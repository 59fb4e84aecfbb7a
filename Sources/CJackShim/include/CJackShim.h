#ifndef FXHOST_CJACKSHIM_H
#define FXHOST_CJACKSHIM_H

#include <jack/jack.h>

/// jack_client_open is variadic; this opens a client on a named server (or the
/// default when server_name is NULL) and never starts a server by itself.
jack_client_t *fxhost_jack_client_open(const char *client_name,
                                       const char *server_name,
                                       jack_status_t *status);

#endif
