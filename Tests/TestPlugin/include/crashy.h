#ifndef FXHOST_CRASHY_H
#define FXHOST_CRASHY_H

/* The plugins of crashy.c, which fail on purpose; their bundle is written by
 * the tests next to the built library (see TestSupport's CrashingPlugins). */
#define FXHOST_CRASH_RUN_URI "urn:fxhost:test:crash-run"
#define FXHOST_ABORT_INSTANTIATE_URI "urn:fxhost:test:abort-instantiate"
#define FXHOST_SPIN_RUN_URI "urn:fxhost:test:spin-run"
#define FXHOST_CRASH_WORK_URI "urn:fxhost:test:crash-work"
#define FXHOST_OVERFLOW_RUN_URI "urn:fxhost:test:overflow-run"
#define FXHOST_STALL_RUN_URI "urn:fxhost:test:stall-run"

#endif
