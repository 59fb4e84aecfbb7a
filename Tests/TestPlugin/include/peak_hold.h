#ifndef FXHOST_PEAK_HOLD_H
#define FXHOST_PEAK_HOLD_H

/* The plugin of peak_hold.c; its bundle is written by the tests next to
 * the built library (see TestSupport's PeakHoldPlugin). */
#define FXHOST_PEAK_HOLD_URI "urn:fxhost:test:peak-hold"
/* The same, but its state save() segfaults. */
#define FXHOST_PEAK_HOLD_CRASH_SAVE_URI "urn:fxhost:test:peak-hold-crash-save"
/* The same, but its state restore() segfaults. */
#define FXHOST_PEAK_HOLD_CRASH_RESTORE_URI "urn:fxhost:test:peak-hold-crash-restore"
/* The held value's key in its LV2 state. */
#define FXHOST_PEAK_HOLD_HELD_KEY "urn:fxhost:test:peak-hold#held"

#endif
