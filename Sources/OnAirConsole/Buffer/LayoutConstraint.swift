/// How much of a split one piece gets: the small constraint set of ratatui's layout, enough for dashboards.
public enum LayoutConstraint: Sendable, Equatable {
    /// Exactly this many cells (less if the area is too small).
    case length(Int)
    /// A share of the whole, in percent, rounded down.
    case percentage(Int)
    /// At least this many cells; shares what is left with the other `.fill`/`.min` pieces.
    case min(Int)
    /// An equal share of what the fixed pieces leave.
    case fill
}
