#ifndef FXHOST_PROBE_H
#define FXHOST_PROBE_H

/* The probe plugin's URI; its bundle (manifest and ports) is written by the
 * tests next to the built library (see TestSupport's ProbePlugin). */
#define FXHOST_PROBE_URI "urn:fxhost:test:probe"
/* The block-length probe (probe_blocks.c): out = in, latency = the nominal
 * block length it was last told; refuses (options:interface set) a length
 * above FXHOST_PROBE_BLOCKS_LIMIT. */
#define FXHOST_PROBE_BLOCKS_URI "urn:fxhost:test:probe-blocks"
#define FXHOST_PROBE_BLOCKS_LIMIT 1024

#endif
