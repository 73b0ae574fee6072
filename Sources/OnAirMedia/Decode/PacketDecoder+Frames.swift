import CFFmpeg
import OnAirCore

extension PacketDecoder {
    /// RMS and peak over up to two channels of a decoded audio frame, in the sample formats the subscriber's
    /// decoders produce: float or 16-bit, planar or interleaved (AAC, MP3, PCM, G.711), or 8-bit unsigned.
    static func level(of frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64) -> AudioLevel {
        let samples = Int(frame.pointee.nb_samples)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let used = min(channels, 2)
        let planes = [frame.pointee.data.0, frame.pointee.data.1]
        var sumOfSquares = 0.0
        var peak = 0.0
        var count = 0
        func add(_ value: Double) {
            sumOfSquares += value * value
            peak = max(peak, abs(value))
            count += 1
        }
        /// Calls `body` with the sample at `index` of `channel`, reading planar or interleaved layouts.
        func each<Sample>(_ type: Sample.Type, planar: Bool, _ convert: (Sample) -> Double) {
            guard used > 0 else { return }
            for channel in 0..<used {
                guard let plane = planar ? planes[channel] : planes[0] else { continue }
                let values = UnsafeRawPointer(plane).assumingMemoryBound(to: Sample.self)
                for index in 0..<samples { add(convert(values[planar ? index : index * channels + channel])) }
            }
        }
        switch AVSampleFormat(frame.pointee.format) {
        case AV_SAMPLE_FMT_FLTP: each(Float.self, planar: true) { Double($0) }
        case AV_SAMPLE_FMT_FLT: each(Float.self, planar: false) { Double($0) }
        case AV_SAMPLE_FMT_S16P: each(Int16.self, planar: true) { Double($0) / 32768 }
        case AV_SAMPLE_FMT_S16: each(Int16.self, planar: false) { Double($0) / 32768 }
        case AV_SAMPLE_FMT_U8: each(UInt8.self, planar: false) { (Double($0) - 128) / 128 }
        default: break
        }
        let rms = count > 0 ? (sumOfSquares / Double(count)).squareRoot() : 0
        func decibels(_ value: Double) -> Double { value > 0 ? max(-120, 20 * log10(value)) : -120 }
        return AudioLevel(decodeTimestamp: timestamp, rmsDBFS: decibels(rms), peakDBFS: decibels(peak))
    }

    /// The decoded picture as a tightly packed I420 `VideoFrame`.
    static func copyI420(_ frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64) -> VideoFrame? {
        guard frame.pointee.format == AV_PIX_FMT_YUV420P.rawValue || frame.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue else { return nil }
        var picture = VideoFrame(width: Int(frame.pointee.width), height: Int(frame.pointee.height), sequenceNumber: Int(timestamp))
        let layout = [
            (frame.pointee.data.0, frame.pointee.linesize.0, picture.width, picture.height, 0),
            (frame.pointee.data.1, frame.pointee.linesize.1, picture.chromaWidth, picture.chromaHeight, picture.lumaCount),
            (frame.pointee.data.2, frame.pointee.linesize.2, picture.chromaWidth, picture.chromaHeight, picture.lumaCount + picture.chromaCount),
        ]
        picture.planes.withUnsafeMutableBufferPointer { planes in
            for (data, stride, width, height, offset) in layout {
                guard let data else { continue }
                for row in 0..<height {
                    (planes.baseAddress! + offset + row * width).update(from: data + row * Int(stride), count: width)
                }
            }
        }
        return picture
    }
}
