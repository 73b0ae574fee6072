import OnAirCore
import Testing

@Suite("preview downscaling: area-averaged")
struct PreviewImageAreaAverageTests {
    /// A 4×2 picture: a one-pixel white stroke at x = 1 on black.
    static let stroke = PreviewImage(width: 4, height: 2, rgb: (0..<8).flatMap { $0 % 4 == 1 ? [UInt8](repeating: 255, count: 3) : [0, 0, 0] })

    @Test("halving a picture averages each 2×2 block, so a thin stroke stays as a grey, never vanishes")
    func halving() {
        let left = Self.stroke.areaAverage(x: 0, y: 0, width: 2, height: 1)
        let right = Self.stroke.areaAverage(x: 1, y: 0, width: 2, height: 1)
        #expect(left == (128, 128, 128))
        #expect(right == (0, 0, 0))
    }

    @Test("a uniform picture stays the same colour at any target size")
    func uniform() {
        let red = PreviewImage(width: 64, height: 36, rgb: Array((0..<(64 * 36)).flatMap { _ in [200, 10, 20] as [UInt8] }))
        for (width, height) in [(21, 12), (64, 36), (100, 60), (1, 1)] {
            for (x, y) in [(0, 0), (width - 1, height - 1), (width / 2, height / 2)] {
                #expect(red.areaAverage(x: x, y: y, width: width, height: height) == (200, 10, 20))
            }
        }
    }

    @Test("upscaling takes the pixel under the target's centre")
    func upscaling() {
        #expect(Self.stroke.areaAverage(x: 2, y: 0, width: 8, height: 4) == (255, 255, 255))
        #expect(Self.stroke.areaAverage(x: 3, y: 3, width: 8, height: 4) == (255, 255, 255))
        #expect(Self.stroke.areaAverage(x: 4, y: 0, width: 8, height: 4) == (0, 0, 0))
    }
}
