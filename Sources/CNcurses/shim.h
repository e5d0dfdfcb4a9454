#ifndef MHZ_CNCURSES_SHIM_H
#define MHZ_CNCURSES_SHIM_H
/* SwiftPM drops the -D flags pkg-config gives for ncursesw (-D_DEFAULT_SOURCE,
 * -D_XOPEN_SOURCE=600), so ask for the wide-character API here. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncurses.h>

/* stdscr, LINES and COLS are mutable C globals, which Swift 6 refuses as not
 * concurrency-safe; attributes and KEY_F are macros. Reach them through functions. */
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_maxy(WINDOW *w) { return getmaxy(w); }
static inline int cnc_maxx(WINDOW *w) { return getmaxx(w); }
static inline int cnc_key_f(int n) { return KEY_F(n); }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline int cnc_color_pair(int n) { return COLOR_PAIR(n); }
/* COLORS and COLOR_PAIRS are mutable globals too. */
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
/* Attributes with a colour pair of any number: COLOR_PAIR() holds only 8 bits, while
 * ncurses 6 takes a larger pair through wattr_set's opts pointer. */
static inline int cnc_attr_set_pair(attr_t attrs, int pair) {
    return wattr_set(stdscr, attrs, (NCURSES_PAIRS_T)(pair < 32768 ? pair : 0), &pair);
}
/* wcwidth lives in wchar.h behind _XOPEN_SOURCE on glibc; expose it unconditionally. */
extern int wcwidth(wchar_t c);
static inline int cnc_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }
#endif
