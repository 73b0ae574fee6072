// ALSA bridge for OnAirMedia (the only Swift target that imports it).
//
// libasound prints its own errors to stderr through a variadic handler, which Swift
// cannot declare; the silent handler lives here (docs/platform-notes.md, "ALSA without a sound card").
#ifndef ONAIR_CALSA_SHIM_H
#define ONAIR_CALSA_SHIM_H

#include <alsa/asoundlib.h>

static inline void onair_alsa_silent_error_handler(const char *file, int line, const char *function,
                                                   int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Routes libasound's messages to nowhere: OnAir reports ALSA failures itself, in one line.
static inline void onair_alsa_silence_errors(void) {
    snd_lib_error_set_handler(onair_alsa_silent_error_handler);
}

#endif
