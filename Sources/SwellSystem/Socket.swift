#if canImport(Glibc)
    import Glibc
#endif

/// Datagram sockets: the kernel's uevents (netlink) and systemd's notification socket (AF_UNIX).
extension FileDescriptor {
    /// A non-blocking, close-on-exec netlink socket bound to the kernel's own uevent multicast
    /// group, which any user may read (display hotplug without udev). Throws its errno (no
    /// netlink in this kernel or container).
    public static func openUeventSocket() throws(Errno) -> FileDescriptor {
        let fd = systemUeventSocket()
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: fd)
    }

    /// A close-on-exec AF_UNIX datagram socket, for `send(_:toUnixSocket:)`.
    public static func openUnixDatagramSocket() throws(Errno) -> FileDescriptor {
        let fd = systemUnixDatagramSocket()
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: fd)
    }

    /// Receives one datagram into `buffer` (recv(2), retried when interrupted); its length.
    /// Throws EAGAIN on an empty non-blocking socket, ENOBUFS when the socket overflowed and
    /// datagrams were lost.
    public func receive(into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
        try retryingInterrupts { systemRecv(rawValue, buffer, count) }
    }

    /// Sends `message` as one datagram to the AF_UNIX socket at `path` (a file path, or "@name"
    /// for the abstract namespace), as sd_notify(3) does: a fresh sendto each time, never
    /// SIGPIPE. Allocates nothing. Throws ENAMETOOLONG for a path longer than sun_path, EINVAL
    /// for another form.
    public func send(_ message: UnsafeRawBufferPointer, toUnixSocket path: UnsafePointer<CChar>) throws(Errno) {
        guard let base = message.baseAddress, systemSendUnixDatagram(rawValue, path, base, message.count) == 0 else {
            if message.baseAddress == nil { throw Errno.invalid }
            throw Errno.current
        }
    }
}
