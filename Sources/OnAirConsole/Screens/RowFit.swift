/// The one abbreviation rule every dashboard row follows (docs/demo-truth.md, "Every figure fits 80×24").
///
/// Why a rule and not per-row truncation: a cut figure lies ("abr 2.5M → sent 7…" hides the cap, "congestion
/// 1…" could be 1 % or 100 %). Each row is laid out for 80 columns first; a row whose full text does not fit
/// takes the first of these forms that does:
/// 1. every field long, two spaces between fields (three where a row separates groups);
/// 2. every field long, one space between;
/// 3. every field in its short form (fixed words: `dropped`→`drop`, `congestion`→`cong`, …), one space;
/// 4. the least important field left out whole, then the next, …, down to the most important one.
/// A field is shown whole or not at all: a number is never cut, nor parted from its unit.
public struct RowField: Sendable, Equatable {
    public var long: String
    public var short: String
    /// Higher stays longer when fields must go.
    public var importance: Int

    public init(_ long: String, short: String? = nil, importance: Int) {
        self.long = long
        self.short = short ?? long
        self.importance = importance
    }
}

public enum RowFit {
    /// The row's text at `width` columns, by the rule above; fields keep their order.
    public static func text(_ fields: [RowField], width: Int, gap: String = "  ") -> String {
        let forms = forms(fields, gap: gap)
        return forms.first { DisplayWidth.of($0) <= width } ?? forms.last ?? ""
    }

    /// Whether the row fits whole (every field, in any of its forms) at `width`.
    public static func fitsWhole(_ fields: [RowField], width: Int) -> Bool {
        DisplayWidth.of(fields.map(\.short).joined(separator: " ")) <= width
    }

    /// Every form, longest first, as the rule lists them.
    public static func forms(_ fields: [RowField], gap: String = "  ") -> [String] {
        var forms = [
            fields.map(\.long).joined(separator: gap),
            fields.map(\.long).joined(separator: " "),
            fields.map(\.short).joined(separator: " "),
        ]
        var kept = fields
        while kept.count > 1, let least = kept.indices.min(by: { kept[$0].importance < kept[$1].importance }) {
            kept.remove(at: least)
            forms.append(kept.map(\.short).joined(separator: " "))
        }
        return forms
    }
}
