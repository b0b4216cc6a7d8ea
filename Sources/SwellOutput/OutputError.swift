/// Why an image could not be written or read. `description` names the file and the cause.
public struct OutputError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// True when the file to read is missing or unreadable (sysexits EX_NOINPUT),
    /// false for write failures and malformed files.
    public let isMissingInput: Bool

    public init(path: String, reason: String, isMissingInput: Bool = false) {
        self.path = path
        self.reason = reason
        self.isMissingInput = isMissingInput
    }

    public var description: String { "\(path): \(reason)" }
}
