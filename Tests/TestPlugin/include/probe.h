#ifndef FXHOST_PROBE_H
#define FXHOST_PROBE_H

/* The probe plugin's URI; its bundle (manifest and ports) is written by the
 * tests next to the built library (see TestSupport's ProbePlugin). */
#define FXHOST_PROBE_URI "urn:fxhost:test:probe"

#endif
