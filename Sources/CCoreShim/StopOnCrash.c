#include "CCoreShim.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Async-signal-safe only: write(2), raise(3), _exit(2). */
static void stop_on_crash(int number) {
    const char *name = number == SIGSEGV ? "SIGSEGV" : number == SIGBUS ? "SIGBUS" : number == SIGILL ? "SIGILL"
        : number == SIGFPE ? "SIGFPE" : number == SIGABRT ? "SIGABRT" : "a signal";
    static const char before[] = "fxhost: error: a plugin crashed the render (";
    static const char after[] = "); nothing was written\n";
    ssize_t ignored = write(2, before, sizeof before - 1);
    ignored = write(2, name, strlen(name));
    ignored = write(2, after, sizeof after - 1);
    (void)ignored;
    raise(SIGSTOP);
    _exit(1); /* continued instead of killed: end all the same */
}

void fxhost_stop_process_on_crash(void) {
    const int numbers[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (unsigned i = 0; i < sizeof numbers / sizeof numbers[0]; ++i) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = stop_on_crash;
        sigfillset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigaction(numbers[i], &action, NULL);
    }
}
