import SwellJSON

/// Where and how the management API listens (`swell run --api ADDRESS:PORT --api-tokens FILE`,
/// or a kiosk file's `"api"`). Off unless given; HTTPS unless the address is loopback or plain
/// HTTP is asked for.
public struct ManagementSettings: Sendable, Equatable {
    /// A numeric IPv4 or IPv6 address.
    public var address: String
    public var port: UInt16
    /// The tokens file (`swell token add NAME --tokens FILE`).
    public var tokens: String
    /// The admin's PEM certificate chain and key (nil: a self-signed pair beside the tokens file,
    /// made at the first start).
    public var certificate: String?
    public var key: String?
    /// Plain HTTP on an address that is not loopback (a reverse proxy on the same network does
    /// TLS).
    public var plainHTTP = false
    /// The largest upload, in MiB.
    public var uploadLimitMiB = 64

    public init(address: String, port: UInt16, tokens: String) {
        self.address = address
        self.port = port
        self.tokens = tokens
    }

    /// Whether the address is loopback (127.0.0.0/8, ::1): only this host reaches it.
    public var isLoopback: Bool { address.hasPrefix("127.") || address == "::1" }

    /// Whether it serves HTTPS.
    public var usesTLS: Bool { !isLoopback && !plainHTTP }

    /// "127.0.0.1:8080", "0.0.0.0:8443", "[::]:8443" → address and port; nil when not one.
    public static func listenAddress(_ text: String) -> (address: String, port: UInt16)? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText), port > 0, isNumericAddress(String(host)) else { return nil }
        return (String(host), port)
    }

    static func isNumericAddress(_ text: String) -> Bool {
        if text.contains(":") { return text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part).map { _ in part.count <= 3 } ?? false }
    }
}

extension KioskFileReader {
    /// The `"api"` section.
    mutating func management(_ field: JSONField) -> ManagementSettings? {
        let allowed = ["listen", "tokens", "certificate", "key", "plainHTTP", "uploadLimit"]
        guard isObject(field, allowed: allowed) else { return nil }
        let listenField = check { () throws(JSONFieldError) in try field["listen"] }
        let tokensField = check { () throws(JSONFieldError) in try field["tokens"] }
        var listen: (address: String, port: UInt16)?
        if let listenField, let text = check({ () throws(JSONFieldError) in try listenField.string() }) {
            listen = ManagementSettings.listenAddress(text)
            if listen == nil {
                problem(
                    listenField,
                    "expected a numeric ADDRESS:PORT such as \"0.0.0.0:8443\" or \"[::]:8443\", got \(jsonString(text))"
                )
            }
        }
        let tokens = tokensField.flatMap { file($0) }
        let certificate = optional(field, "certificate").flatMap { file($0) }
        let key = optional(field, "key").flatMap { file($0) }
        if (certificate == nil) != (key == nil) {
            problem(field, "give \"certificate\" and \"key\" together (or neither: a self-signed pair is made)")
        }
        let plain = optional(field, "plainHTTP").flatMap { plain in
            check { () throws(JSONFieldError) in try plain.bool() }
        }
        let limit = optional(field, "uploadLimit").flatMap { limit in
            check { () throws(JSONFieldError) in try limit.integer(in: 1...4096) }
        }
        guard let listen, let tokens else { return nil }
        var settings = ManagementSettings(address: listen.address, port: listen.port, tokens: tokens)
        settings.certificate = certificate
        settings.key = key
        settings.plainHTTP = plain ?? false
        settings.uploadLimitMiB = limit ?? 64
        return settings
    }
}
