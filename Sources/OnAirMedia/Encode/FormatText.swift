/// Short number formatting for one-line format descriptions (no Foundation formatter on the hot path).
extension Double {
    /// "30" for 30.0, "29.97" otherwise: for one-line format descriptions. A value no `Int` holds (a file
    /// header's `F1e300:1`, NaN) is Swift's own text: `Int(_:)` of it traps, and it is the refusal's message.
    var formatted2: String {
        guard isFinite, abs(self) < 1e15 else { return "\(self)" }
        if self == rounded() { return String(Int(self)) }
        return String(format2: self)
    }
}

extension String {
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }
}
