import Glibc
@testable import OnAirMedia

/// Picture-quality measures for round-trip tests.
enum Quality {
    /// PSNR in dB over all three I420 planes (the usual "YUV PSNR": mean squared error over every byte).
    static func psnr(_ reference: VideoFrame, _ decoded: VideoFrame) -> Double {
        precondition(reference.planes.count == decoded.planes.count, "sizes differ")
        var squared = 0.0
        for index in reference.planes.indices {
            let difference = Double(reference.planes[index]) - Double(decoded.planes[index])
            squared += difference * difference
        }
        let mse = squared / Double(reference.planes.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }
}
