/// Exit statuses from BSD sysexits(3), so scripts can tell a usage mistake from bad data.
enum ExitStatus {
    static let success: Int32 = 0
    /// The command line was wrong (unknown verb or option, missing argument).
    static let usage: Int32 = 64
    /// An input file was malformed (bad JSON, a field out of range).
    static let dataError: Int32 = 65
    /// An input file could not be opened.
    static let noInput: Int32 = 66
    /// A device or service was unavailable (no display, device busy).
    static let unavailable: Int32 = 69
    /// A device is held by another program (another DRM master such as a desktop); try later.
    static let tryAgain: Int32 = 75
    /// The system's configuration does not allow the request (no such connector, mode not offered).
    static let configuration: Int32 = 78
    /// An output file could not be created.
    static let cannotCreate: Int32 = 73
    /// Reading or writing failed part-way.
    static let ioError: Int32 = 74
    /// Permission denied on a device or file.
    static let noPermission: Int32 = 77
}

/// An error a verb reports as one line on standard error, with the exit status it implies.
struct CommandFailure: Error, CustomStringConvertible {
    let status: Int32
    let message: String

    init(_ status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }

    /// What to tell the user about `error`: a CommandFailure's message, else the error itself.
    var description: String { message }

    static func message(of error: any Error) -> String {
        (error as? CommandFailure)?.message ?? "\(error)"
    }
}
