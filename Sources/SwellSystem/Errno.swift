#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call's error number, with its symbolic name and the C library's message.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` right now.
    public static var current: Errno { Errno(rawValue: systemErrno()) }

    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noEntry = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let accessDenied = Errno(rawValue: EACCES)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let invalid = Errno(rawValue: EINVAL)
    public static let notTTY = Errno(rawValue: ENOTTY)
    public static let notImplemented = Errno(rawValue: ENOSYS)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let exists = Errno(rawValue: EEXIST)

    /// "EACCES" and the like; "errno N" for numbers this table does not know.
    public var name: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EFAULT: "EFAULT"
        case EBUSY: "EBUSY"
        case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"
        case ENOTTY: "ENOTTY"
        case ENOSPC: "ENOSPC"
        case ENOSYS: "ENOSYS"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ENOBUFS: "ENOBUFS"
        case EISDIR: "EISDIR"
        case EEXIST: "EEXIST"
        case ENOTDIR: "ENOTDIR"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ETIMEDOUT: "ETIMEDOUT"
        default: "errno \(rawValue)"
        }
    }

    /// The C library's text for the error, e.g. "Permission denied".
    public var message: String { systemStrerror(rawValue) }

    public var description: String { "\(message) (\(name))" }
}

/// Runs a system call until it is not interrupted by a signal; throws its errno on failure.
@inlinable @inline(__always)
public func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
