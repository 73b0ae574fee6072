/// The largest picture OnAir's subscriber decodes, checked against the *coded* size of every SPS wherever
/// it arrives (sequence header, in-band in a keyframe, a repeated id) and again when libavcodec asks for a
/// frame buffer: the preview never needs more, and a hostile SPS (16368×8000) otherwise makes libavcodec
/// allocate gigabytes (issues 14 and 29).
public enum PictureBound {
    public static let maxWidth = 4096
    public static let maxHeight = 2304
    /// The bound in pixels (4096×2304).
    public static let maxPixels = maxWidth * maxHeight

    /// Whether a `width`×`height` picture is within the bound (either side up to `maxWidth`, the area up
    /// to `maxPixels`, so a portrait 2304×4096 passes too).
    public static func fits(width: Int, height: Int) -> Bool {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && width >= 0 && height >= 0 && pixels <= maxPixels && max(width, height) <= maxWidth
    }
}
