import SwellJSON

/// Why a draw list could not be loaded. `description` is the one line the CLI prints:
/// the file, then where in it and what was expected.
public enum DrawListError: Error, CustomStringConvertible {
    /// The file could not be read (missing, unreadable, a directory).
    case unreadable(file: String, reason: String)
    /// The text is not JSON.
    case syntax(file: String, JSONSyntaxError)
    /// The JSON is not a valid `drawlist/1` document.
    case invalid(file: String, JSONFieldError)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "\(file): cannot read: \(reason)"
        case .syntax(let file, let error): "\(file): \(error) (not valid JSON)"
        case .invalid(let file, let error): "\(file): \(error)"
        }
    }

    /// True when the file itself is missing or unreadable (sysexits EX_NOINPUT) rather than malformed.
    public var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }
}
