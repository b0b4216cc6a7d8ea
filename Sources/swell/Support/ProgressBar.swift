import SwellSystem

/// A one-line progress bar on standard error, drawn only when standard error is a terminal
/// and redrawn at most ten times a second.
struct ProgressBar {
    let total: Int
    let label: String
    private let enabled = FileDescriptor.standardError.isTerminal
    private var lastDraw = 0.0

    init(total: Int, label: String) {
        self.total = max(1, total)
        self.label = label
    }

    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = monotonicSeconds()
        guard done == total || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        printErrorRaw("\r\(label) [\(bar)] \(done)/\(total)")
    }

    func finish() {
        guard enabled else { return }
        printErrorRaw("\r" + String(repeating: " ", count: label.count + 50) + "\r")
    }
}

/// Writes text to standard error without a newline.
func printErrorRaw(_ text: String) { writeToStandardError(text) }
