extension Duration {
    /// Whole milliseconds (truncated): for history rows, progress lines and reports.
    public var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }

    /// The duration in seconds, as a floating-point number.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
