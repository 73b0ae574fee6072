import Glibc
@testable import OnAirMedia

/// Picture-quality measures for round-trip tests.
enum Quality {
    /// PSNR in dB over all three I420 planes (the usual "YUV PSNR": mean squared error over every byte).
    static func psnr(_ reference: VideoFrame, _ decoded: VideoFrame) -> Double {
        // Read once: a mapped clip's frame copies its whole picture at every read of `planes`.
        let reference = reference.planes, decoded = decoded.planes
        precondition(reference.count == decoded.count, "sizes differ")
        var squared = 0.0
        for index in reference.indices {
            let difference = Double(reference[index]) - Double(decoded[index])
            squared += difference * difference
        }
        let mse = squared / Double(reference.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }
}
