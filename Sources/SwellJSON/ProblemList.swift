/// Collects validation failures instead of stopping at the first, so a file's every problem is
/// reported in one run (scene files, touch scripts, kiosk files).
public struct ProblemList: Sendable {
    public var problems: [String] = []

    public init() {}

    /// The body's value, or nil with its failure (path and message) recorded.
    public mutating func check<T>(_ body: () throws(JSONFieldError) -> T) -> T? {
        do {
            return try body()
        } catch {
            problems.append(error.description)
            return nil
        }
    }
}
