#ifndef FXHOST_CRASH_REPORT_H
#define FXHOST_CRASH_REPORT_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

/* What fxhost says when a plugin (or fxhost) crashes: the culprit cell,
 * the render's position, the files to remove, and the signal handler that
 * reads them. See CrashReport.c. */

/* The plugin call a thread is in, stored in the culprit cell. */
#define FXHOST_CALL_NONE 0
#define FXHOST_CALL_INSTANTIATE 1
#define FXHOST_CALL_ACTIVATE 2
#define FXHOST_CALL_RUN 3
#define FXHOST_CALL_WORK 4
#define FXHOST_CALL_WORK_RESPONSE 5
#define FXHOST_CALL_STATE_SAVE 6
#define FXHOST_CALL_STATE_RESTORE 7
#define FXHOST_CALL_CLEANUP 8
/* The host filling a plugin's event input or reading its event output. */
#define FXHOST_CALL_EVENTS 9

/* `node` in the cell: no node known, or the node named for set-up
 * (`fxhost_culprit_name_setup`) rather than a row of the names table. */
#define FXHOST_NODE_NONE (-1)
#define FXHOST_NODE_SETUP (-2)

/* Which node (a row of the names table) and which plugin call the thread is
 * in. One per thread, so render workers and the realtime thread each have
 * theirs; a synchronous crash signal runs its handler on the thread that
 * crashed, which reads its own. Initial-exec TLS: the shim is linked into
 * the executable, so a store is one instruction, no allocation or lock. */
typedef struct {
    int32_t node;
    int32_t call;
} fxhost_culprit_cell;

extern __thread fxhost_culprit_cell fxhost_culprit __attribute__((tls_model("initial-exec")));

/* Before a plugin call: which node, which call. Realtime-safe (one store). */
static inline void fxhost_culprit_enter(int32_t node, int32_t call) {
    fxhost_culprit_cell cell = {node, call};
    fxhost_culprit = cell;
}

/* After a plugin call: none. Realtime-safe (one store). */
static inline void fxhost_culprit_leave(void) {
    fxhost_culprit_cell cell = {FXHOST_NODE_NONE, FXHOST_CALL_NONE};
    fxhost_culprit = cell;
}

/* Marks the call alone (the node stays), returning the call it replaces
 * so the caller can put it back: the LV2 side's instantiate, activate,
 * work(), state and cleanup. Realtime-safe (one load, one store). */
static inline int32_t fxhost_culprit_swap_call(int32_t call) {
    int32_t previous = fxhost_culprit.call;
    fxhost_culprit.call = call;
    return previous;
}

/* The timeline frame at the start of the block being rendered, and the
 * rate, for "at 0:02.346 of the input"; -1: no render in progress.
 * Process-wide: one render per process reports crashes. */
extern volatile int64_t fxhost_crash_frame;

/* Realtime-safe (one store). */
static inline void fxhost_crash_set_frame(int64_t frame) { fxhost_crash_frame = frame; }

/* Off the realtime thread: the rate `fxhost_crash_frame` counts at
 * (rounded Hz), then -1 as the frame until the first block. */
void fxhost_crash_begin_render(int64_t rate);
/* The render's files are complete and in place: a crash from here on (a
 * plugin's cleanup()) says so instead of the aftermath, until the next render. */
void fxhost_crash_outputs_written(void);
/* The render ended: crashes after this say no time. */
void fxhost_crash_end_render(void);

/* The names table: row `index` is a node's name and its plugin's name,
 * already escaped for a terminal (cut to fit: at most 255 bytes each). */
void fxhost_crash_set_names_count(int32_t count);
void fxhost_crash_set_name(int32_t index, const char *node, const char *plugin);
/* Rows the table holds. */
int32_t fxhost_crash_names_capacity(void);

/* For set-up calls (instantiate, activate, a state restore) that happen
 * before a plan and its table exist: names this thread's node directly,
 * and sets the cell's node to FXHOST_NODE_SETUP. Off the realtime thread. */
void fxhost_culprit_name_setup(const char *node, const char *plugin);

/* A partial file to remove if the process crashes: returns a slot (or -1
 * when all are taken or the path is too long) for `fxhost_crash_drop_file`. */
int32_t fxhost_crash_register_file(const char *path);
void fxhost_crash_drop_file(int32_t slot);

/* Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT in
 * this process (once; later calls do nothing), with an alternate signal
 * stack for the calling thread, and the hang handler for
 * FXHOST_HANG_SIGNAL. `aftermath` is what the sentence says of the files
 * once the registered ones are removed ("nothing was written");
 * `hang_aftermath` what it says of them after a hang (NULL or empty: the
 * same). Off the realtime thread. */
void fxhost_crash_install(const char *aftermath, const char *hang_aftermath);

/* The signal the hang watch interrupts a stuck thread with. SIGUSR2: nothing
 * in fxhost, libjack or lilv sends or handles it. Not SIGUSR1, which
 * libdispatch's threads block; not SIGXCPU, which the kernel sends a realtime
 * thread over RLIMIT_RTTIME; Swift's own backtracer borrows SIGUSR2 only
 * while it handles a crash, and fxhost's handler replaces it. The handler
 * reports only on a thread in a plugin call (or when told to report
 * anyway); any other thread only counts an answer and goes on. */
#define FXHOST_HANG_SIGNAL SIGUSR2

/* Off the realtime thread, by the hang watch. Begin a report: the sentence
 * says no cycle completed for `seconds`; answers and "anyway" reset. */
void fxhost_hang_begin(int32_t seconds);
/* Sends `thread` FXHOST_HANG_SIGNAL (pthread_kill's result). */
int fxhost_hang_interrupt(pthread_t thread);
/* Threads interrupted since `fxhost_hang_begin` that were in no plugin call. */
int32_t fxhost_hang_answers(void);
/* From now on an interrupted thread reports even in no plugin call: the
 * engine hung, naming no plugin. */
void fxhost_hang_report_anyway(void);
/* Reports on the calling thread that the engine hung, naming no plugin, and
 * ends the process: when no interrupted thread did. */
void fxhost_hang_report_here(void);
/* While `stop` is 1, the process stops (SIGSTOP) after the report instead
 * of ending: one that must not die while the server freewheels (the child
 * of `fxhost render --engine jack`, a supervised engine's live bounce);
 * whoever started it switches freewheel off, then kills it. */
void fxhost_crash_set_stop_instead_of_exit(int stop);
/* A supervised engine: the report goes to `descriptor` (its supervisor's
 * pipe) instead of stderr, as a line `crash<TAB>node<TAB>plugin<TAB>call<TAB>signal`
 * (empty fields where unknown) and then the sentence. */
void fxhost_crash_report_to(int descriptor);
/* 1 once `fxhost_crash_install` ran. */
int fxhost_crash_installed(void);

/* An alternate signal stack for the calling thread, so a stack overflow
 * reaches the handler: call first thing in a new thread, and pass what it
 * returns to `fxhost_crash_thread_end` before the thread returns. */
void *fxhost_crash_thread_begin(void);
void fxhost_crash_thread_end(void *stack);
/* The same for a thread someone else started and ends (libjack's, from its
 * thread-init callback): the stack is freed when the thread ends. */
void fxhost_crash_thread_begin_for_life(void);

#endif
