/// Short number formatting for one-line format descriptions (no Foundation formatter on the hot path).
extension Double {
    /// "30" for 30.0, "29.97" otherwise: for one-line format descriptions.
    var formatted2: String {
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
