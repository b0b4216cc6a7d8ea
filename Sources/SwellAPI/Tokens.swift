import CSodium
import SwellJSON
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// One API token as the tokens file keeps it: a name, a public id (in the token itself, so the
/// right record is found without trying each) and the salted hash of the whole token
/// (libsodium's `crypto_pwhash_str`, Argon2id). The token itself is shown once and kept nowhere.
public struct TokenRecord: Sendable, Equatable {
    public var name: String
    public var id: String
    public var hash: String
    /// Unix seconds.
    public var created: Double

    public init(name: String, id: String, hash: String, created: Double) {
        self.name = name
        self.id = id
        self.hash = hash
        self.created = created
    }
}

public struct TokenFileError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The tokens file (`tokens/1`): `{"format": "tokens/1", "tokens": [{"name", "id", "hash",
/// "created"}]}`, written atomically and readable by its owner alone.
public enum TokenFile {
    public static let format = "tokens/1"

    /// The records of `path`; a file that does not exist has none.
    public static func read(_ path: String) throws(TokenFileError) -> [TokenRecord] {
        guard fileExists(path) else { return [] }
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path, limit: 4 << 20)
        } catch {
            throw TokenFileError("\(path): cannot read: \(error)")
        }
        return try parse(bytes, path: path)
    }

    public static func parse(_ bytes: [UInt8], path: String) throws(TokenFileError) -> [TokenRecord] {
        do {
            let root = JSONField(root: try parseJSON(bytes))
            try root.rejectUnknownMembers(allowed: ["format", "tokens"])
            let format = try root["format"].string()
            guard format == Self.format else {
                throw root.failure("\"format\" is \(jsonString(format)); a tokens file is \"\(Self.format)\"")
            }
            var records: [TokenRecord] = []
            for entry in try root["tokens"].array() {
                try entry.rejectUnknownMembers(allowed: ["name", "id", "hash", "created"])
                let record = TokenRecord(
                    name: try entry["name"].string(), id: try entry["id"].string(), hash: try entry["hash"].string(),
                    // A Unix time up to the year 9999: `text` writes it as a whole number and
                    // `swell token list` as a date.
                    created: try entry.optional("created")?.number(in: 0...253_402_300_799) ?? 0)
                guard record.hash.hasPrefix("$argon2") else {
                    throw entry.failure(
                        "\"hash\" is not a crypto_pwhash string; make the token again with swell token add")
                }
                records.append(record)
            }
            return records
        } catch let error as JSONSyntaxError {
            throw TokenFileError("\(path): not JSON: \(error)")
        } catch let error as JSONFieldError {
            throw TokenFileError("\(path): \(error)")
        } catch {
            throw TokenFileError("\(path): \(error)")
        }
    }

    public static func text(_ records: [TokenRecord]) -> String {
        let tokens = records.map { record in
            JSONOut.object([
                ("name", .string(record.name)), ("id", .string(record.id)), ("hash", .string(record.hash)),
                ("created", .int(Int(record.created))),
            ])
        }
        return JSONOut.object([("format", .string(format)), ("tokens", .array(tokens))]).text + "\n"
    }

    /// Writes `records` to `path` (mode 0600: the hashes are not secrets, but no one else needs
    /// them), atomically.
    public static func write(_ records: [TokenRecord], to path: String) throws(TokenFileError) {
        do {
            try writePrivateFileAtomically(Array(text(records).utf8), to: path)
        } catch {
            throw TokenFileError("\(path): cannot write: \(error)")
        }
    }
}

/// Writes `bytes` to `path` readable by the owner alone, whole or not at all.
public func writePrivateFileAtomically(_ bytes: [UInt8], to path: String) throws(Errno) {
    let temporary = path + ".partial-\(currentProcessID())"
    let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
    do {
        try fd.writeAll(bytes)
        try fd.synchronize()
        try fd.closeReportingErrors()
        try renameFile(temporary, to: path)
    } catch {
        fd.close()
        try? removeFile(temporary)
        throw error
    }
}

/// Tokens: made, hashed and checked with libsodium.
public enum Tokens {
    /// Once per process; libsodium's functions are safe from any thread after.
    static let ready: Bool = sodium_init() >= 0

    /// A new token for `name` and its record: "swell_" + a 12-hex-digit id + "_" + 32 random
    /// bytes in base64url.
    public static func make(name: String, now: Double) -> (token: String, record: TokenRecord) {
        precondition(ready, "libsodium could not start")
        let id = hex(randomBytes(6))
        let token = "swell_\(id)_" + base64URL(randomBytes(32))
        return (token, TokenRecord(name: name, id: id, hash: hash(token), created: now))
    }

    /// The id a token names (nil: not the shape of one).
    public static func id(of token: String) -> String? {
        let parts = token.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "swell", parts[1].count == 12, parts[2].count == 43 else { return nil }
        return String(parts[1])
    }

    /// Argon2id, at libsodium's interactive limits (64 MiB, about 0.1 s).
    public static func hash(_ token: String) -> String {
        precondition(ready, "libsodium could not start")
        var out = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let made = token.withCString { text in
            crypto_pwhash_str(
                &out, text, UInt64(strlen(text)), UInt64(crypto_pwhash_opslimit_interactive()),
                crypto_pwhash_memlimit_interactive())
        }
        precondition(made == 0, "crypto_pwhash_str ran out of memory")
        return text(of: out)
    }

    /// Whether `token` hashes to `hash` (the same work whether it does or not).
    public static func matches(_ token: String, hash: String) -> Bool {
        precondition(ready, "libsodium could not start")
        return hash.withCString { stored in
            token.withCString { text in crypto_pwhash_str_verify(stored, text, UInt64(strlen(text))) == 0 }
        }
    }

    public static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium could not start")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        var out = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        _ = sodium_bin2base64(&out, out.count, bytes, bytes.count, variant)
        return text(of: out)
    }

    /// The text of a NUL-terminated C buffer.
    static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A keyed BLAKE2b digest (the verifier's cache of tokens already checked).
    static func digest(_ token: String, key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let bytes = Array(token.utf8)
        _ = crypto_generichash(&out, 32, bytes, UInt64(bytes.count), key, key.count)
        return out
    }

    /// Compares in time that does not depend on where they differ.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && sodium_memcmp(a, b, a.count) == 0
    }
}

/// Checks bearer tokens against the tokens file, from any thread.
///
/// The hash is slow on purpose, so a token checked once is remembered by a keyed digest (a key
/// made at start, never stored): later requests cost a BLAKE2b and a constant-time compare. A
/// token not remembered is always checked against a hash — its record's, or a decoy's when its
/// id is unknown or it is not a token at all — so a wrong token takes the same time whatever it
/// is. The file is looked at again when it changes: a removed token stops working at once.
public final class TokenVerifier: @unchecked Sendable {
    public let path: String
    private let lock = Lock()
    /// One slow check at a time (each takes 64 MiB).
    private let hashing = Lock()
    private var records: [TokenRecord] = []
    private var version: FileVersion?
    private var remembered: [String: [UInt8]] = [:]
    private let cacheKey = Tokens.randomBytes(32)
    private let decoy = Tokens.hash(Tokens.make(name: "decoy", now: 0).token)
    /// Hash checks made so far (the tests count them: every wrong token costs one).
    public private(set) var hashChecks = 0

    public init(path: String) throws(TokenFileError) {
        self.path = path
        records = try TokenFile.read(path)
        version = fileVersion(path: path)
    }

    /// The number of tokens in the file.
    public var count: Int { lock.withLock { records.count } }

    /// The name of the token's record, or nil.
    public func verify(_ token: String) -> String? {
        reloadIfChanged()
        let id = Tokens.id(of: token)
        let digest = Tokens.digest(token, key: cacheKey)
        let (record, known) = lock.withLock { () -> (TokenRecord?, [UInt8]?) in
            let record = id.flatMap { id in records.first { $0.id == id } }
            return (record, id.flatMap { remembered[$0] })
        }
        if let record, let known, Tokens.same(known, digest) { return record.name }
        let matched = hashing.withLock {
            hashChecks += 1
            return Tokens.matches(token, hash: record?.hash ?? decoy)
        }
        guard matched, let record else { return nil }
        lock.withLock { remembered[record.id] = digest }
        return record.name
    }

    private func reloadIfChanged() {
        let now = fileVersion(path: path)
        guard lock.withLock({ now != version }) else { return }
        // Unreadable or broken: no token works until it is fixed (a revocation must not fail open).
        let fresh = (try? TokenFile.read(path)) ?? []
        lock.withLock {
            records = fresh
            version = now
            remembered = remembered.filter { id, _ in fresh.contains { $0.id == id } }
        }
    }
}
