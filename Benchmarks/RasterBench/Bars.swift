/// The performance bars from the issue, checked on the tuned build (reported, never enforced).
struct Bar {
    /// Cairo median / Swell median must be at least this.
    var minCairoOverSwell: Double?
    /// Swell median / memset median must be at most this.
    var maxSwellOverMemset: Double?
    /// The stricter bars a later issue sets.
    var laterMinCairoOverSwell: Double?
    var laterMaxSwellOverMemset: Double?

    static func forList(_ name: String) -> Bar? {
        switch name {
        case "ripples-1000": Bar(minCairoOverSwell: 20, laterMinCairoOverSwell: 40)
        case "waves", "waves-4k": Bar(minCairoOverSwell: 10, maxSwellOverMemset: 6, laterMaxSwellOverMemset: 3)
        case "text-page": Bar(minCairoOverSwell: 5)
        default: nil
        }
    }

    /// "C/S ≥ 20 yes · later C/S ≥ 40 no" for the measured ratios (nil when not measured).
    func verdict(cairoOverSwell: Double?, swellOverMemset: Double?) -> String {
        func check(_ label: String, _ value: Double?, _ limit: Double?, atLeast: Bool) -> String? {
            guard let limit else { return nil }
            let relation = atLeast ? "≥" : "≤"
            guard let value, value.isFinite else {
                return "\(label) \(relation) \(formatFixed(limit, digits: 0)) unmeasured"
            }
            let met = atLeast ? value >= limit : value <= limit
            return "\(label) \(relation) \(formatFixed(limit, digits: 0)) \(met ? "yes" : "no")"
        }
        let now = [
            check("C/S", cairoOverSwell, minCairoOverSwell, atLeast: true),
            check("S/M", swellOverMemset, maxSwellOverMemset, atLeast: false),
        ].compactMap { $0 }
        let later = [
            check("C/S", cairoOverSwell, laterMinCairoOverSwell, atLeast: true),
            check("S/M", swellOverMemset, laterMaxSwellOverMemset, atLeast: false),
        ].compactMap { $0 }
        return now.joined(separator: ", ") + (later.isEmpty ? "" : " · later: " + later.joined(separator: ", "))
    }
}
