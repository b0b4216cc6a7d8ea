import SwellSystem

/// The value at fraction `p` (0...1) of a sorted sample, nearest-rank.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Milliseconds with three decimals, e.g. "4.125".
func formatMilliseconds(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

/// A refresh rate: "60 Hz", or with the hundredths it has ("59.94 Hz").
func formatHertz(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    if hundredths % 100 == 0 { return "\(hundredths / 100) Hz" }
    let fraction = String(hundredths % 100)
    return "\(hundredths / 100)." + String(repeating: "0", count: 2 - fraction.count) + fraction + " Hz"
}

/// The number of online CPU cores (at least 1).
func onlineCores() -> Int {
    onlineProcessorCount()
}
