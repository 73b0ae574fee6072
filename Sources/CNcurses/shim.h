// ncursesw bridge for OnAirTerminal (the only Swift target that imports it).
//
// SwiftPM drops pkg-config's -D flags for system libraries, so the wide-character
// API is switched on here before the header is read (PLATFORM-NOTES.md, "SwiftPM and C").
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
/// Pairs above 255 only fit through `setcchar`'s `opts` pointer (PLATFORM-NOTES.md, "ncurses").
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

#endif
