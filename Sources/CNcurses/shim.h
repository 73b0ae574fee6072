// ncursesw bridge for OnAirTerminal (the only Swift target that imports it).
//
// SwiftPM drops pkg-config's -D flags for system libraries, so the wide-character
// API is switched on here before the header is read (docs/platform-notes.md, "SwiftPM and C").
// Swift cannot import function-like macros nor read C globals in Swift 6 mode, so
// each one used is wrapped below under the macro's own name, prefixed `onair_`.
#ifndef ONAIR_CNCURSES_SHIM_H
#define ONAIR_CNCURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/// `stdscr` is a C global; Swift 6 refuses to read it.
static inline WINDOW *onair_stdscr(void) { return stdscr; }
/// `LINES` / `COLS` / `COLORS` / `COLOR_PAIRS` are C globals.
static inline int onair_LINES(void) { return LINES; }
static inline int onair_COLS(void) { return COLS; }
static inline int onair_COLORS(void) { return COLORS; }
static inline int onair_COLOR_PAIRS(void) { return COLOR_PAIRS; }

/// Attribute macros expand to casts and shifts Swift does not import.
static inline attr_t onair_A_NORMAL(void) { return A_NORMAL; }
static inline attr_t onair_A_BOLD(void) { return A_BOLD; }
static inline attr_t onair_A_DIM(void) { return A_DIM; }
static inline attr_t onair_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t onair_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t onair_A_ITALIC(void) { return A_ITALIC; }
static inline int onair_COLOR_PAIR(int n) { return COLOR_PAIR(n); }

/// `getmaxyx` is a function-like macro.
static inline void onair_getmaxyx(WINDOW *win, int *rows, int *cols) {
    int y, x;
    getmaxyx(win, y, x);
    *rows = y;
    *cols = x;
}

/// Draws one wide character with attributes and an (extended) colour pair at (y, x).
/// Pairs above 255 only fit through `setcchar`'s `opts` pointer (docs/platform-notes.md, "ncurses").
static inline int onair_mvadd_wch(WINDOW *win, int y, int x, wchar_t ch, attr_t attrs, int pair) {
    cchar_t cell;
    wchar_t text[2] = { ch, L'\0' };
    int extendedPair = pair;
    if (setcchar(&cell, text, attrs, (short)(pair > 255 ? 0 : pair), &extendedPair) == ERR) {
        return ERR;
    }
    return mvwadd_wch(win, y, x, &cell);
}

/// Draws one grapheme (a base character plus combining marks, at most 5 wide chars) at (y, x).
/// `text` is NUL-terminated. Same pair handling as `onair_mvadd_wch`.
static inline int onair_mvadd_wchstr(WINDOW *win, int y, int x, const wchar_t *text, attr_t attrs, int pair) {
    cchar_t cell;
    int extendedPair = pair;
    if (setcchar(&cell, text, attrs, (short)(pair > 255 ? 0 : pair), &extendedPair) == ERR) {
        return ERR;
    }
    return mvwadd_wch(win, y, x, &cell);
}

/// `curscr` is a C global: ncurses' idea of what the terminal shows now (read back in tests).
static inline WINDOW *onair_curscr(void) { return curscr; }

/// Reads the cell at (y, x) of `win`: its first wide character, attributes and extended pair.
/// Returns ERR outside the window.
static inline int onair_mvwin_wch(WINDOW *win, int y, int x, wchar_t *ch, attr_t *attrs, int *pair) {
    cchar_t cell;
    if (mvwin_wch(win, y, x, &cell) == ERR) return ERR;
    wchar_t text[CCHARW_MAX + 1];
    short shortPair = 0;
    int extendedPair = 0;
    if (getcchar(&cell, text, attrs, &shortPair, &extendedPair) == ERR) return ERR;
    *ch = text[0];
    *pair = extendedPair != 0 ? extendedPair : shortPair;
    return OK;
}

/// Opens a write FILE on a duplicate of `fd` (the FILE owns the duplicate). NULL on failure.
/// A real descriptor matters: ncurses writes with `write(fileno(file))` and reads the window size
/// with `ioctl` on it, so a cookie FILE (to count bytes) would silently draw nothing.
static inline FILE *onair_write_file(int fd) {
    int copy = dup(fd);
    if (copy < 0) return NULL;
    FILE *file = fdopen(copy, "w");
    if (file == NULL) close(copy);
    return file;
}

/// Opens a read FILE on a duplicate of `fd` (the FILE owns the duplicate). NULL on failure.
static inline FILE *onair_read_file(int fd) {
    int copy = dup(fd);
    if (copy < 0) return NULL;
    FILE *file = fdopen(copy, "r");
    if (file == NULL) close(copy);
    return file;
}

/// `stdout`/`stderr` are globals too; `newterm` needs FILE pointers.
static inline FILE *onair_stdout(void) { return stdout; }
static inline FILE *onair_stdin(void) { return stdin; }


// MARK: Crash guard — the terminal restored even when the process dies of a fatal signal.
//
// A crash (a Swift trap is SIGILL or SIGTRAP, a bad pointer SIGSEGV or SIGBUS, abort() SIGABRT) skips
// every `defer` and `endwin`, and would leave the operator's shell raw, silent and on the alternate screen.
// The handler does only async-signal-safe things: write(2) the terminal's own exit sequences (read from
// terminfo at install time), tcsetattr(3) the modes saved before ncurses changed them, point the screen's
// descriptor at /dev/null, and say so in one line; then it hands the signal to whoever had it before
// (Swift's backtracer, or the default action).
#include <fcntl.h>
#include <signal.h>
#include <termios.h>

static const int onair_crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define ONAIR_CRASH_SIGNAL_COUNT (sizeof onair_crash_signals / sizeof onair_crash_signals[0])

/// The guard's state. Swift emits only the C functions it calls, not a header's static variables, so the
/// state is a function-local static: emitted once, with the function.
struct onair_crash_guard_state {
    struct termios termios;
    int input;
    int output;
    int screen_input;
    char sequence[256];
    size_t sequence_length;
    struct sigaction previous[ONAIR_CRASH_SIGNAL_COUNT];
    int installed;
};

static inline struct onair_crash_guard_state *onair_crash_state(void) {
    static struct onair_crash_guard_state state = { .input = -1, .output = -1, .screen_input = -1 };
    return &state;
}

static inline void onair_crash_append(const char *capability) {
    struct onair_crash_guard_state *state = onair_crash_state();
    const char *value = tigetstr((char *)capability);
    if (value == NULL || value == (char *)-1) return;
    size_t length = strlen(value);
    if (state->sequence_length + length >= sizeof state->sequence) return;
    memcpy(state->sequence + state->sequence_length, value, length);
    state->sequence_length += length;
}

static inline void onair_crash_handler(int signal_number, siginfo_t *info, void *context) {
    struct onair_crash_guard_state *state = onair_crash_state();
    if (state->output >= 0) {
        if (state->sequence_length > 0) {
            ssize_t ignored = write(state->output, state->sequence, state->sequence_length);
            (void)ignored;
        }
        // Other threads run on until the process dies (the console's drawing thread among them):
        // their screen updates go nowhere now instead of over the restored shell.
        int sink = open("/dev/null", O_WRONLY);
        if (sink >= 0) { dup2(sink, state->output); close(sink); }
    }
    if (state->screen_input >= 0) {
        // …and its key reader finds the end of its input, so a key pressed now reaches whoever asks next.
        int sink = open("/dev/null", O_RDONLY);
        if (sink >= 0) { dup2(sink, state->screen_input); close(sink); }
    }
    if (state->input >= 0) tcsetattr(state->input, TCSANOW, &state->termios);
    static const char message[] = "\r\nonair: crashed (fatal signal); the terminal was restored\r\n";
    ssize_t ignored = write(2, message, sizeof message - 1);
    (void)ignored;
    // The previous owner (Swift's backtracer) reports the crash with the same context; then the default
    // action ends the process with this signal, whether the crash was a fault or a signal sent from outside.
    for (size_t index = 0; index < ONAIR_CRASH_SIGNAL_COUNT; index++) {
        if (onair_crash_signals[index] != signal_number) continue;
        struct sigaction previous = state->previous[index];
        if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
            previous.sa_sigaction(signal_number, info, context);
        } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
            previous.sa_handler(signal_number);
        }
    }
    signal(signal_number, SIG_DFL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, signal_number);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(signal_number);
}

/// Saves the tty's modes; call before `newterm` changes them.
static inline void onair_crash_guard_save_modes(int input) {
    struct onair_crash_guard_state *state = onair_crash_state();
    if (tcgetattr(input, &state->termios) == 0) state->input = input;
}

/// Reads the exit sequences from terminfo (after `newterm`) and installs the handler. `output` and
/// `input` are the screen's own (duplicated) descriptors, silenced on a crash.
static inline void onair_crash_guard_install(int output, int input) {
    struct onair_crash_guard_state *state = onair_crash_state();
    state->output = output;
    state->screen_input = input;
    state->sequence_length = 0;
    onair_crash_append("rmcup");
    onair_crash_append("sgr0");
    onair_crash_append("cnorm");
    if (state->installed) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = onair_crash_handler;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < ONAIR_CRASH_SIGNAL_COUNT; index++) {
        sigaction(onair_crash_signals[index], &action, &state->previous[index]);
    }
    state->installed = 1;
}

/// Puts the previous handlers back (the terminal was restored the normal way).
static inline void onair_crash_guard_remove(void) {
    struct onair_crash_guard_state *state = onair_crash_state();
    if (!state->installed) return;
    for (size_t index = 0; index < ONAIR_CRASH_SIGNAL_COUNT; index++) {
        sigaction(onair_crash_signals[index], &state->previous[index], NULL);
    }
    state->installed = 0;
    state->input = -1;
    state->output = -1;
    state->screen_input = -1;
}

#endif
