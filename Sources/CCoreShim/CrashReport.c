/* The crash handler: one sentence on stderr naming the culprit, the partial
 * files removed, the backtrace in a log file, exit status 1. The hang
 * handler says the same of a thread stuck in a plugin call.
 *
 * Everything it reads is global C state, and that is on purpose: a signal
 * handler can reach nothing else (no Swift object, no lock, no allocation).
 * The handler itself keeps to async-signal-safe calls: write(2), open(2),
 * unlink(2), getpid(2), _exit(2), and backtrace()/backtrace_symbols_fd()
 * (backtrace() is called once at install time, so libgcc is loaded then and
 * not from inside the handler). Text is formatted by hand: no stdio. */
#define _GNU_SOURCE
#include "CrashReport.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

__thread fxhost_culprit_cell fxhost_culprit __attribute__((tls_model("initial-exec"))) = {FXHOST_NODE_NONE, FXHOST_CALL_NONE};
volatile int64_t fxhost_crash_frame = -1;

enum {
    NAME_BYTES = 256,
    NAMES = 1024,
    FILES = 64,
    PATH_BYTES = 4096,
    /* Enough for the unwinder and the handler's own buffers. */
    ALT_STACK_BYTES = 128 * 1024,
    BACKTRACE_FRAMES = 128,
};

typedef struct {
    char node[NAME_BYTES];
    char plugin[NAME_BYTES];
} names_row;

static names_row names[NAMES];
static atomic_int names_count;
static __thread names_row setup_names;
static volatile int64_t render_rate;

/* A slot is 0 free, 1 being written, 2 holding a path to remove. */
static atomic_int file_state[FILES];
static char files[FILES][PATH_BYTES];

static char log_folder[PATH_BYTES] = "/tmp";
/* What the sentence says of the files, after removing the partial ones. */
static char aftermath_text[128];
/* What it says of them after a hang (empty: the same as after a crash). */
static char hang_aftermath_text[128];
/* How long no cycle completed, for the hang's sentence. */
static volatile sig_atomic_t hang_seconds;
static atomic_int installed;
/* Set before install for a process that must stop, not end, after its report. */
static volatile sig_atomic_t stop_instead_of_exit;
/* Where a supervised engine's report goes instead of stderr (-1: stderr). */
static volatile int report_descriptor = -1;
/* The render's files are in place: a crash after it (a plugin's cleanup())
 * must not say nothing was written. */
static atomic_int outputs_written;
static atomic_int handling;

/* Bounded copy that always ends in NUL and never cuts a UTF-8 character. */
static void copy_text(char *destination, size_t capacity, const char *source) {
    size_t length = source ? strlen(source) : 0;
    if (length >= capacity) {
        length = capacity - 1;
        while (length > 0 && ((unsigned char)source[length] & 0xC0) == 0x80) length -= 1;
    }
    if (length > 0) memcpy(destination, source, length);
    destination[length] = 0;
}

void fxhost_crash_begin_render(int64_t rate) {
    render_rate = rate;
    fxhost_crash_frame = -1;
    atomic_store(&outputs_written, 0);
}

void fxhost_crash_outputs_written(void) { atomic_store(&outputs_written, 1); }

void fxhost_crash_end_render(void) {
    fxhost_crash_frame = -1;
    render_rate = 0;
}

void fxhost_crash_set_names_count(int32_t count) {
    atomic_store(&names_count, count < 0 ? 0 : count > NAMES ? NAMES : count);
}

void fxhost_crash_set_name(int32_t index, const char *node, const char *plugin) {
    if (index < 0 || index >= NAMES) return;
    copy_text(names[index].node, NAME_BYTES, node);
    copy_text(names[index].plugin, NAME_BYTES, plugin);
}

int32_t fxhost_crash_names_capacity(void) { return NAMES; }

void fxhost_culprit_name_setup(const char *node, const char *plugin) {
    copy_text(setup_names.node, NAME_BYTES, node);
    copy_text(setup_names.plugin, NAME_BYTES, plugin);
    fxhost_culprit_enter(FXHOST_NODE_SETUP, FXHOST_CALL_NONE);
}

int32_t fxhost_crash_register_file(const char *path) {
    if (path == NULL || strlen(path) >= PATH_BYTES) return -1;
    for (int slot = 0; slot < FILES; ++slot) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&file_state[slot], &expected, 1)) continue;
        copy_text(files[slot], PATH_BYTES, path);
        atomic_store(&file_state[slot], 2);
        return slot;
    }
    return -1;
}

void fxhost_crash_drop_file(int32_t slot) {
    if (slot >= 0 && slot < FILES) atomic_store(&file_state[slot], 0);
}

int fxhost_crash_installed(void) { return atomic_load(&installed); }

/* MARK: the handler's text, formatted by hand */

typedef struct {
    char *bytes;
    size_t capacity;
    size_t length;
} text;

static void append(text *out, const char *string) {
    while (*string && out->length + 1 < out->capacity) out->bytes[out->length++] = *string++;
    out->bytes[out->length] = 0;
}

static void append_number(text *out, uint64_t value, int minimum_digits) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && count < (int)sizeof digits);
    while (count < minimum_digits && count < (int)sizeof digits) digits[count++] = '0';
    char reversed[25];
    for (int index = 0; index < count; ++index) reversed[index] = digits[count - 1 - index];
    reversed[count] = 0;
    append(out, reversed);
}

static const char *signal_name(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a signal";
    }
}

static const char *call_name(int32_t call) {
    switch (call) {
    case FXHOST_CALL_INSTANTIATE: return "instantiate()";
    case FXHOST_CALL_ACTIVATE: return "activate()";
    case FXHOST_CALL_RUN: return "run()";
    case FXHOST_CALL_WORK: return "its worker's work()";
    case FXHOST_CALL_WORK_RESPONSE: return "work_response()";
    case FXHOST_CALL_STATE_SAVE: return "its state save()";
    case FXHOST_CALL_STATE_RESTORE: return "its state restore()";
    case FXHOST_CALL_CLEANUP: return "cleanup()";
    case FXHOST_CALL_EVENTS: return "the host's delivery of its events";
    default: return NULL;
    }
}

/* "h:mm:ss.mmm" or "m:ss.mmm", rounded to the millisecond. */
static void append_time(text *out, int64_t frame, int64_t rate) {
    uint64_t ms = ((uint64_t)frame * 1000 + (uint64_t)rate / 2) / (uint64_t)rate;
    uint64_t seconds = ms / 1000, minutes = seconds / 60, hours = minutes / 60;
    if (hours > 0) {
        append_number(out, hours, 1);
        append(out, ":");
        append_number(out, minutes % 60, 2);
    } else {
        append_number(out, minutes, 1);
    }
    append(out, ":");
    append_number(out, seconds % 60, 2);
    append(out, ".");
    append_number(out, ms % 1000, 3);
}

/* Opens $TMPDIR/fxhost-crash-PID.log, or -1.log, -2.log… if taken. */
static int open_log(text *path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        path->length = 0;
        append(path, log_folder);
        append(path, "/fxhost-crash-");
        append_number(path, (uint64_t)getpid(), 1);
        if (attempt > 0) {
            append(path, "-");
            append_number(path, (uint64_t)attempt, 1);
        }
        append(path, ".log");
        int descriptor = open(path->bytes, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (descriptor >= 0) return descriptor;
        if (errno != EEXIST) return -1;
    }
    return -1;
}

static void write_all(int descriptor, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(descriptor, bytes, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        bytes += written;
        length -= (size_t)written;
    }
}

/* The report, on the thread whose cell names the culprit; `hung`: the hang
 * watch interrupted it (the signal is then the watch's, not worth naming). */
static void report(int signal, fxhost_culprit_cell cell, int hung) {
    /* Two threads crashing at once: the first one reports and exits. */
    if (atomic_exchange(&handling, 1)) {
        for (;;) pause();
    }
    int32_t count = atomic_load(&names_count);
    const names_row *row = cell.node >= 0 && cell.node < count ? &names[cell.node]
        : cell.node == FXHOST_NODE_SETUP ? &setup_names : NULL;
    const char *call = call_name(cell.call);

    static char sentence_bytes[2048], path_bytes[PATH_BYTES + 64];
    text sentence = {sentence_bytes, sizeof sentence_bytes, 0};
    text path = {path_bytes, sizeof path_bytes, 0};
    int log = open_log(&path);

    append(&sentence, "fxhost: error: ");
    const char *verb = hung ? " hung in " : " crashed in ";
    if (call != NULL && row != NULL && row->node[0] != 0) {
        append(&sentence, "node `");
        append(&sentence, row->node);
        append(&sentence, "`");
        if (row->plugin[0] != 0) {
            append(&sentence, " (");
            append(&sentence, row->plugin);
            append(&sentence, ")");
        }
        append(&sentence, verb);
        append(&sentence, call);
    } else if (call != NULL) {
        append(&sentence, "a plugin");
        append(&sentence, verb);
        append(&sentence, call);
    } else {
        append(&sentence, hung ? "the engine hung" : "fxhost crashed");
    }
    if (hung) {
        append(&sentence, ": no cycle completed for ");
        append_number(&sentence, (uint64_t)hang_seconds, 1);
        append(&sentence, " s");
    } else {
        append(&sentence, " (");
        append(&sentence, signal_name(signal));
        append(&sentence, ")");
    }
    int64_t frame = fxhost_crash_frame, rate = render_rate;
    if (frame >= 0 && rate > 0) {
        append(&sentence, " at ");
        append_time(&sentence, frame, rate);
        append(&sentence, " of the input");
    }
    for (int slot = 0; slot < FILES; ++slot) {
        if (atomic_load(&file_state[slot]) == 2) unlink(files[slot]);
    }
    if (atomic_load(&outputs_written)) {
        append(&sentence, "; the files were written before it");
    } else if (hung && hang_aftermath_text[0] != 0) {
        append(&sentence, "; ");
        append(&sentence, hang_aftermath_text);
    } else if (aftermath_text[0] != 0) {
        append(&sentence, "; ");
        append(&sentence, aftermath_text);
    }
    if (log >= 0) {
        append(&sentence, "; the backtrace is in ");
        append(&sentence, path.bytes);
    } else {
        append(&sentence, "; no backtrace was saved (");
        append(&sentence, log_folder);
        append(&sentence, " is not writable)");
    }
    append(&sentence, "\n");
    /* The sentence first: unwinding may take the dynamic loader's lock (a
     * crash inside dlopen, during instantiate), and must not keep it unsaid.
     * A supervised engine reports to its supervisor instead: one line of
     * tab-separated fields (node, plugin, call, signal) before the sentence. */
    int supervisor = report_descriptor;
    if (supervisor >= 0) {
        static char record_bytes[1024];
        text record = {record_bytes, sizeof record_bytes, 0};
        append(&record, "crash\t");
        append(&record, call != NULL && row != NULL ? row->node : "");
        append(&record, "\t");
        append(&record, call != NULL && row != NULL ? row->plugin : "");
        append(&record, "\t");
        append(&record, call != NULL ? call : "");
        append(&record, "\t");
        append(&record, hung ? "hang" : signal_name(signal));
        append(&record, "\n");
        write_all(supervisor, record.bytes, record.length);
    }
    write_all(supervisor >= 0 ? supervisor : STDERR_FILENO, sentence.bytes, sentence.length);

    if (log >= 0) {
        write_all(log, sentence.bytes, sentence.length);
        /* The thread's name ("fxhost render 1", "fxhost worker"): which one crashed. */
        char thread_name[17] = {0};
        if (prctl(PR_GET_NAME, thread_name, 0, 0, 0) == 0) {
            static const char label[] = "Thread: ";
            write_all(log, label, sizeof label - 1);
            write_all(log, thread_name, strnlen(thread_name, 16));
            write_all(log, "\n", 1);
        }
        static const char heading[] = "\nBacktrace of the thread that crashed (FILE(+OFFSET)[ADDRESS]; "
                                      "`addr2line -Cfe FILE OFFSET` names the function):\n";
        static const char hung_heading[] = "\nBacktrace of the thread that hung (FILE(+OFFSET)[ADDRESS]; "
                                           "`addr2line -Cfe FILE OFFSET` names the function):\n";
        if (hung) write_all(log, hung_heading, sizeof hung_heading - 1);
        else write_all(log, heading, sizeof heading - 1);
        static void *frames[BACKTRACE_FRAMES];
        int depth = backtrace(frames, BACKTRACE_FRAMES);
        backtrace_symbols_fd(frames, depth, log);
        close(log);
    }
    /* A client must not die while the JACK server freewheels (jackd2 could
     * not drop it): stopped, it waits for its parent to switch freewheel off
     * and kill it. */
    if (stop_instead_of_exit) raise(SIGSTOP);
    _exit(1);
}

static void crash_handler(int signal, siginfo_t *info, void *context) {
    (void)info; (void)context;
    report(signal, fxhost_culprit, 0);
}

/* MARK: hangs
 *
 * The hang watch (JackIO's LiveHangWatch, off the realtime thread) sends
 * FXHOST_HANG_SIGNAL to each thread that may be stuck: the one that is in a
 * plugin call reports, as a crash does, from its own culprit cell and with
 * its own backtrace; the others only answer and carry on. */

static atomic_int hang_answers;
/* The last resort: the watch found no thread in a plugin call; the next
 * thread it interrupts reports that the engine hung, naming no plugin. */
static atomic_int hang_report_anyway;

static void hang_handler(int signal, siginfo_t *info, void *context) {
    (void)info; (void)context;
    fxhost_culprit_cell cell = fxhost_culprit;
    if (call_name(cell.call) != NULL || atomic_load(&hang_report_anyway)) report(signal, cell, 1);
    /* Not this thread: it goes on where it was (an interrupted wait may
     * return early, harmless as the process ends either way). */
    int saved = errno;
    atomic_fetch_add(&hang_answers, 1);
    errno = saved;
}

void fxhost_hang_begin(int32_t seconds) {
    hang_seconds = seconds < 0 ? 0 : seconds;
    atomic_store(&hang_answers, 0);
    atomic_store(&hang_report_anyway, 0);
}

int fxhost_hang_interrupt(pthread_t thread) { return pthread_kill(thread, FXHOST_HANG_SIGNAL); }

int32_t fxhost_hang_answers(void) { return atomic_load(&hang_answers); }

void fxhost_hang_report_anyway(void) { atomic_store(&hang_report_anyway, 1); }

void fxhost_hang_report_here(void) {
    fxhost_culprit_cell none = {FXHOST_NODE_NONE, FXHOST_CALL_NONE};
    report(FXHOST_HANG_SIGNAL, none, 1);
}

/* MARK: installing */

void *fxhost_crash_thread_begin(void) {
    void *memory = mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return NULL;
    stack_t stack = {.ss_sp = memory, .ss_flags = 0, .ss_size = ALT_STACK_BYTES};
    if (sigaltstack(&stack, NULL) != 0) {
        munmap(memory, ALT_STACK_BYTES);
        return NULL;
    }
    return memory;
}

void fxhost_crash_thread_end(void *memory) {
    if (memory == NULL) return;
    stack_t off = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};
    sigaltstack(&off, NULL);
    munmap(memory, ALT_STACK_BYTES);
}

/* Threads that others start (libjack's) free their alternate stack as they
 * end, through a thread-specific value's destructor. */
static pthread_key_t stack_key;
static pthread_once_t stack_key_once = PTHREAD_ONCE_INIT;
static void free_thread_stack(void *memory) { fxhost_crash_thread_end(memory); }
static void make_stack_key(void) { (void)pthread_key_create(&stack_key, free_thread_stack); }

void fxhost_crash_thread_begin_for_life(void) {
    (void)pthread_once(&stack_key_once, make_stack_key);
    void *memory = fxhost_crash_thread_begin();
    if (memory != NULL && pthread_setspecific(stack_key, memory) != 0) fxhost_crash_thread_end(memory);
}

void fxhost_crash_set_stop_instead_of_exit(int stop) { stop_instead_of_exit = stop ? 1 : 0; }

void fxhost_crash_report_to(int descriptor) { report_descriptor = descriptor; }

void fxhost_crash_install(const char *aftermath, const char *hang_aftermath) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&installed, &expected, 1)) return;
    copy_text(aftermath_text, sizeof aftermath_text, aftermath);
    copy_text(hang_aftermath_text, sizeof hang_aftermath_text, hang_aftermath);
    const char *folder = getenv("TMPDIR");
    if (folder != NULL && folder[0] == '/' && strlen(folder) < PATH_BYTES - 64) {
        copy_text(log_folder, sizeof log_folder, folder);
        size_t length = strlen(log_folder);
        while (length > 1 && log_folder[length - 1] == '/') log_folder[--length] = 0;
    }
    /* Loads libgcc's unwinder now: dlopen from inside a handler could lock or allocate. */
    void *frames[4];
    backtrace(frames, 4);
    /* The main thread's alternate stack lives as long as the process. */
    (void)fxhost_crash_thread_begin();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = crash_handler;
    /* The signals are blocked while it runs: a fault inside the handler
     * ends the process as the default action would (the kernel's rule for
     * a blocked synchronous signal), rather than looping; a second thread
     * that crashes waits for the first to report. */
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; ++index) {
        sigaddset(&action.sa_mask, signals[index]);
    }
    /* The hang signal too: a thread reporting a crash must not be
     * interrupted into reporting a hang (it would wait for itself). */
    sigaddset(&action.sa_mask, FXHOST_HANG_SIGNAL);
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; ++index) {
        sigaction(signals[index], &action, NULL);
    }
    action.sa_sigaction = hang_handler;
    sigaction(FXHOST_HANG_SIGNAL, &action, NULL);
}
