import CFFmpeg

/// libav's own logging, silenced once per process.
///
/// Why: libx264 and the decoders print banners and statistics to stderr, which would scribble over the
/// ncurses console; every failure that matters already reaches the operator as a `MediaError`.
enum LibAVLogging {
    private static let silenced: Void = { av_log_set_level(AV_LOG_QUIET) }()

    static func silence() { _ = silenced }
}
