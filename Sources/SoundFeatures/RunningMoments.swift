/// The mean and standard deviation of a stream of numbers, kept as they come (Welford's
/// update: no list of values, no loss of precision when the mean is large beside the spread).
struct RunningMoments {
    /// How many values were added.
    private(set) var count = 0
    /// Their mean so far.
    private(set) var mean = 0.0
    /// The sum of squared differences from the mean.
    private var squares = 0.0

    /// Adds `value`; values that are not finite are left out.
    mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        count += 1
        let delta = value - mean
        mean += delta / Double(count)
        squares += delta * (value - mean)
    }

    /// The (population) standard deviation; 0 for fewer than two values.
    var deviation: Double {
        count > 1 ? (squares / Double(count)).squareRoot() : 0
    }
}
