/// A field that failed validation: its JSON path (such as `$.ops[3].radius`) and what was wrong.
public struct JSONFieldError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// A JSON value together with its path from the document root, so every validation failure
/// names the exact field, the value found and what is allowed.
public struct JSONField: Sendable {
    public let value: JSONValue
    public let path: String

    public init(root: JSONValue) {
        value = root
        path = "$"
    }

    public init(value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    public func failure(_ message: String) -> JSONFieldError {
        JSONFieldError(path: path, message: message)
    }

    func mismatch(_ expected: String) -> JSONFieldError {
        failure("expected \(expected), got \(value.excerpt)")
    }

    // MARK: objects

    /// The members of an object (fails if the value is not an object).
    public func object() throws(JSONFieldError) -> JSONObject {
        guard case .object(let object) = value else { throw mismatch("an object") }
        return object
    }

    /// A required member.
    public subscript(key: String) -> JSONField {
        get throws(JSONFieldError) {
            guard let member = try optional(key) else {
                throw JSONFieldError(path: path, message: "missing required member \"\(key)\"")
            }
            return member
        }
    }

    /// An optional member (nil when absent; `null` counts as absent).
    public func optional(_ key: String) throws(JSONFieldError) -> JSONField? {
        let object = try object()
        guard let member = object[key], member != .null else { return nil }
        return JSONField(value: member, path: path + Self.pathComponent(key))
    }

    /// Fails on members not in `allowed`, naming the first unknown one and listing the allowed set.
    public func rejectUnknownMembers(allowed: [String]) throws(JSONFieldError) {
        let object = try object()
        for key in object.keys where !allowed.contains(key) {
            throw JSONFieldError(
                path: path + Self.pathComponent(key),
                message: "unknown member; allowed here: \(allowed.joined(separator: ", "))")
        }
    }

    static func pathComponent(_ key: String) -> String {
        let simple =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
        return simple ? ".\(key)" : "[\"\(key)\"]"
    }

    // MARK: scalars

    /// A finite number within `range`.
    public func number(in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        throws(JSONFieldError) -> Double
    {
        guard case .number(let n) = value else { throw mismatch("a number") }
        guard n.isFinite else { throw failure("expected a finite number, got \(n)") }
        guard range.contains(n) else {
            throw failure("expected a number \(Self.describe(range)), got \(value.excerpt)")
        }
        return n
    }

    /// A whole number within `range`.
    public func integer(in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
        guard case .number(let n) = value, n.isFinite, n == n.rounded(), abs(n) < 1e15 else {
            throw mismatch("a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        let i = Int(n)
        guard range.contains(i) else {
            throw failure("expected a whole number in \(range.lowerBound)...\(range.upperBound), got \(i)")
        }
        return i
    }

    public func bool() throws(JSONFieldError) -> Bool {
        guard case .bool(let b) = value else { throw mismatch("true or false") }
        return b
    }

    public func string() throws(JSONFieldError) -> String {
        guard case .string(let s) = value else { throw mismatch("a string") }
        return s
    }

    /// One of a fixed set of strings.
    public func oneOf(_ choices: [String]) throws(JSONFieldError) -> String {
        let quoted = choices.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let s) = value else { throw mismatch("one of \(quoted)") }
        guard choices.contains(s) else { throw failure("expected one of \(quoted), got \(value.excerpt)") }
        return s
    }

    /// The elements of an array, each with its own path.
    public func array(count: ClosedRange<Int>? = nil) throws(JSONFieldError) -> [JSONField] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        if let count, !count.contains(elements.count) {
            let wanted =
                count.lowerBound == count.upperBound
                ? "\(count.lowerBound)" : "\(count.lowerBound)...\(count.upperBound)"
            throw failure("expected an array of \(wanted) elements, got \(elements.count)")
        }
        return elements.enumerated().map { JSONField(value: $1, path: "\(path)[\($0)]") }
    }

    /// A straight-alpha colour: `[r, g, b]` or `[r, g, b, a]` with components in 0...1, or a
    /// string `#RRGGBB` / `#RRGGBBAA`.
    public func color() throws(JSONFieldError) -> (r: Double, g: Double, b: Double, a: Double) {
        switch value {
        case .array:
            let parts = try array(count: 3...4)
            var c = [Double]()
            for part in parts { c.append(try part.number(in: 0...1)) }
            return (c[0], c[1], c[2], c.count == 4 ? c[3] : 1)
        case .string(let text):
            let hex = Array(text.utf8)
            guard hex.first == UInt8(ascii: "#"), hex.count == 7 || hex.count == 9,
                let bits = UInt32(String(decoding: hex.dropFirst(), as: UTF8.self), radix: 16)
            else { throw failure("expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", got \(value.excerpt)") }
            let rgba = hex.count == 7 ? bits << 8 | 0xFF : bits
            func channel(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
            return (channel(24), channel(16), channel(8), channel(0))
        default:
            throw mismatch("a colour: [r, g, b(, a)] in 0...1 or \"#RRGGBB[AA]\"")
        }
    }

    static func describe(_ range: ClosedRange<Double>) -> String {
        func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }
        if range.upperBound == .greatestFiniteMagnitude {
            return range.lowerBound == -.greatestFiniteMagnitude ? "(any finite value)" : "≥ \(text(range.lowerBound))"
        }
        return "in \(text(range.lowerBound))...\(text(range.upperBound))"
    }
}
