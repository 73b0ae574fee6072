extension Theme {
    /// False for a theme that names no colour for any role (`monochrome`): the console then draws no
    /// colour anywhere, the preview included.
    public var drawsColour: Bool {
        ThemeRole.allCases.contains { self[$0].foreground != .default || self[$0].background != .default }
    }
}
