/// A parsed JSON document. Objects keep their members in file order so that error messages
/// and listings follow what the user wrote.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's kind, for "expected X, got Y" messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as it would appear in JSON, shortened for error messages.
    public var excerpt: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.isFinite && n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case .string(let s): return s.count > 40 ? "\"\(s.prefix(37))...\"" : "\"\(s)\""
        case .array(let a): return "[…\(a.count) items]"
        case .object(let o): return "{…\(o.keys.count) members}"
        }
    }
}

/// A JSON object with its members in file order.
public struct JSONObject: Equatable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    public init() {}

    /// Adds a member; a repeated key keeps the last value (as most parsers do) but the first position.
    public mutating func set(_ key: String, _ value: JSONValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    public subscript(key: String) -> JSONValue? { values[key] }
}
