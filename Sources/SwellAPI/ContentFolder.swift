import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The content folder the API reads and writes: every path is checked (`ContentPath`) and must
/// lead, after symbolic links, inside the folder. An upload goes to a hidden temporary file
/// beside its target, is checked whole, and is renamed into place only then: a cut-off upload,
/// a refused one or a kiosk stopped mid-way leaves the old file as it was (and no temporary
/// file once the kiosk starts again).
public final class ContentFolder: @unchecked Sendable {
    /// The folder, as `realpath` gives it.
    public let root: String
    /// The largest upload, in bytes.
    public let uploadLimit: Int
    /// The API's own files (the tokens file, the certificate and its key, as `realpath` gives
    /// them): never served, listed, replaced or deleted, even when they lie in the folder.
    public let privateFiles: Set<String>
    static let uploadPrefix = ".swell-upload-"

    public init(_ folder: String, uploadLimit: Int = 64 << 20, privateFiles: [String] = []) throws(Problem) {
        guard let root = canonicalPath(folder), isDirectory(atPath: root) else {
            throw Problem(
                status: 500, title: "Internal Server Error", detail: "the content folder \(folder) is not a folder")
        }
        self.root = root
        self.uploadLimit = uploadLimit
        // A file not made yet (the certificate of the first start) is named by its folder's real path.
        self.privateFiles = Set(
            privateFiles.map { path in
                canonicalPath(path)
                    ?? path.lastIndex(of: "/").flatMap { slash in
                        canonicalPath(String(path[..<slash])).map { $0 + String(path[slash...]) }
                    } ?? path
            })
    }

    private func refusePrivate(_ real: String, _ path: ContentPath) throws(Problem) {
        guard privateFiles.contains(real) else { return }
        throw Problem(
            status: 403, title: "Forbidden",
            detail: "\(quoted(path.description)) is the API's own file (its tokens, certificate or key), not content",
            field: "path")
    }

    /// The file `path` names, which must exist inside the folder (a symbolic link leading out is
    /// refused as a path outside).
    public func existing(_ path: ContentPath) throws(Problem) -> String {
        // Each folder on the way first: through a link out, whether a name exists there is not
        // the API's to say.
        var folder = root
        for part in path.parts.dropLast() {
            let next = folder + "/" + part
            guard fileExists(next) else { break }
            guard let real = canonicalPath(next), inside(real) else { throw outside(path) }
            folder = next
        }
        let joined = root + "/" + path.description
        guard fileExists(joined) || isSymbolicLink(atPath: joined) else {
            throw Problem.notFound("the content folder has no \(quoted(path.description))", field: "path")
        }
        guard let real = canonicalPath(joined), inside(real) else { throw outside(path) }
        try refusePrivate(real, path)
        return real
    }

    /// Where an upload to `path` goes: its folder must be inside (missing folders are made).
    public func target(_ path: ContentPath) throws(Problem) -> (folder: String, file: String) {
        var folder = root
        for part in path.parts.dropLast() {
            let next = folder + "/" + part
            if !fileExists(next) {
                do {
                    try makeDirectory(next)
                } catch {
                    throw Problem(
                        status: 500, title: "Internal Server Error",
                        detail: "cannot make the folder \(quoted(part)): \(error.message)", field: "path")
                }
            }
            guard let real = canonicalPath(next), inside(real) || real == root, isDirectory(atPath: real) else {
                throw outside(path)
            }
            folder = real
        }
        let file = folder + "/" + path.name
        try refusePrivate(canonicalPath(file) ?? file, path)
        if isDirectory(atPath: file) {
            throw Problem(
                status: 409, title: "Conflict", detail: "\(quoted(path.description)) is a folder", field: "path")
        }
        return (folder, file)
    }

    private func inside(_ real: String) -> Bool { real.hasPrefix(root + "/") }

    private func outside(_ path: ContentPath) -> Problem {
        Problem.badRequest(
            "\(quoted(path.description)) leads out of the content folder (a symbolic link)", field: "path")
    }

    /// Every file (not hidden, not through links out), by path relative to the folder; at most
    /// 10 000.
    public func list() -> [(path: String, size: Int64, modified: Double)] {
        var found: [(path: String, size: Int64, modified: Double)] = []
        func walk(_ folder: String, _ prefix: String, depth: Int) {
            guard depth < 16, let names = try? directoryNames(folder) else { return }
            for name in names.sorted(by: naturalOrder) where !name.hasPrefix(".") && found.count < 10_000 {
                let full = folder + "/" + name
                guard let real = canonicalPath(full), inside(real), !privateFiles.contains(real) else { continue }
                if isDirectory(atPath: real) {
                    walk(full, prefix + name + "/", depth: depth + 1)
                } else if let version = fileVersion(path: real) {
                    found.append((prefix + name, version.size, Double(version.modified) / 1e9))
                }
            }
        }
        walk(root, "", depth: 0)
        return found
    }

    /// Removes the temporary files of uploads cut off by a stop (at start, before serving).
    public func removeStaleUploads() {
        func walk(_ folder: String, depth: Int) {
            guard depth < 16, let names = try? directoryNames(folder) else { return }
            for name in names {
                let full = folder + "/" + name
                if name.hasPrefix(Self.uploadPrefix) {
                    try? removeFile(full)
                } else if !name.hasPrefix("."), !isSymbolicLink(atPath: full), isDirectory(atPath: full) {
                    walk(full, depth: depth + 1)
                }
            }
        }
        walk(root, depth: 0)
    }

    /// Starts an upload to `path`: the body goes to a temporary file; `check(temporary, final)`
    /// says why the whole file cannot be used (nil: it can), and `done` is called once it is in
    /// place.
    public func upload(
        _ path: ContentPath, check: @escaping (String, String) -> Problem?
    ) throws(Problem) -> UploadSink {
        let (folder, file) = try target(path)
        let temporary = folder + "/" + Self.uploadPrefix + Tokens.hex(Tokens.randomBytes(8)) + "-" + path.name
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644)
        } catch {
            throw Problem(
                status: 500, title: "Internal Server Error",
                detail: "cannot write in the content folder: \(error.message)")
        }
        return UploadSink(path: path, fd: fd, temporary: temporary, final: file, check: check)
    }

    /// Deletes `path`.
    public func delete(_ path: ContentPath) throws(Problem) {
        let real = try existing(path)
        guard !isDirectory(atPath: real) else {
            throw Problem(
                status: 409, title: "Conflict", detail: "\(quoted(path.description)) is a folder", field: "path")
        }
        // A symbolic link inside the folder is removed itself, not the file it names.
        let joined = root + "/" + path.description
        do {
            try removeFile(isSymbolicLink(atPath: joined) ? joined : real)
        } catch {
            throw Problem(
                status: 500, title: "Internal Server Error",
                detail: "cannot delete \(quoted(path.description)): \(error.message)")
        }
    }
}

/// An upload under way: the body into a temporary file, checked and renamed when whole.
public final class UploadSink: HTTPBodySink {
    let path: ContentPath
    private var fd: FileDescriptor?
    let temporary: String
    let final: String
    private let check: (String, String) -> Problem?
    private var size = 0

    init(
        path: ContentPath, fd: FileDescriptor, temporary: String, final: String,
        check: @escaping (String, String) -> Problem?
    ) {
        self.path = path
        self.fd = fd
        self.temporary = temporary
        self.final = final
        self.check = check
    }

    public func write(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse? {
        guard let fd else { return nil }
        do {
            try fd.writeAll(bytes)
            size += bytes.count
            return nil
        } catch {
            abandon()
            let status = error == Errno(rawValue: ENOSPC) ? 507 : 500
            return Problem(
                status: status, title: status == 507 ? "Insufficient Storage" : "Internal Server Error",
                detail: "cannot write \(quoted(path.description)): \(error.message)"
            ).response
        }
    }

    public func finish() -> HTTPResponse {
        guard let fd else {
            return Problem(status: 500, title: "Internal Server Error", detail: "the upload was abandoned").response
        }
        self.fd = nil
        do {
            try fd.synchronize()
            try fd.closeReportingErrors()
        } catch {
            fd.close()
            try? removeFile(temporary)
            return Problem(
                status: 500, title: "Internal Server Error",
                detail: "cannot write \(quoted(path.description)): \(error.message)"
            ).response
        }
        if let problem = check(temporary, final) {
            try? removeFile(temporary)
            return problem.response
        }
        let replaced = fileExists(final)
        do {
            try renameFile(temporary, to: final)
        } catch {
            try? removeFile(temporary)
            return Problem(
                status: 500, title: "Internal Server Error",
                detail: "cannot put \(quoted(path.description)) in place: \(error.message)"
            ).response
        }
        let body = JSONOut.object([("path", .string(path.description)), ("size", .int(size))])
        return .json(body.text, status: replaced ? 200 : 201)
    }

    public func abandon() {
        guard let fd else { return }
        self.fd = nil
        fd.close()
        try? removeFile(temporary)
    }
}
