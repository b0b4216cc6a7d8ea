/// A malformed JSON text: where (1-based line and column) and what was wrong.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Parses a complete JSON text (RFC 8259, UTF-8). Rejects trailing garbage, and names the
/// non-JSON spellings people try (NaN, Infinity, comments, trailing commas).
public func parseJSON(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    return try parser.parseDocument()
}

/// Parses JSON text given as a string.
public func parseJSON(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parseJSON(Array(text.utf8))
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    static let maximumDepth = 256

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // tolerate a UTF-8 byte-order mark
        skipWhitespace()
        guard index < bytes.count else { throw error("the file is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeHere()) after the end of the JSON value") }
        return value
    }

    // MARK: values

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON; numbers must be finite")
        case UInt8(ascii: "/"):
            throw error("comments are not allowed in JSON")
        default:
            throw error("unexpected \(describeHere()); expected a value")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                if peek(UInt8(ascii: "}")) { throw error("trailing comma before '}'") }
                throw error("unexpected \(describeHere()); expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error("unexpected \(describeHere()); expected ':' after \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            object.set(key, try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return .object(object)
            }
            throw error("unexpected \(describeHere()); expected ',' or '}' in an object")
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw error("unexpected \(describeHere()); expected ',' or ']' in an array")
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
                throw error("NaN and Infinity are not JSON; numbers must be finite")
            }
            throw error("a number needs a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw error("numbers may not have leading zeros")
        }
        skipDigits()
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits after '.'") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("a number needs digits in its exponent")
            }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("'\(text)' is not a number") }
        // Values such as 1e999 overflow to infinity; keep them so the validator can name the
        // field ("expected a finite number") instead of a bare syntax error.
        return value
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: try decodeRun(runStart..<index))
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string; write it as an escape such as \\n") }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: try decodeRun(runStart..<index))
                scalars.append(try parseEscape())
                runStart = index
                continue
            }
            index += 1
        }
    }

    mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        index += 1  // backslash
        guard index < bytes.count else { throw error("unterminated escape") }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(String(high, radix: 16))")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw error("unpaired surrogate \\u\(String(high, radix: 16))")
            }
            return scalar
        default:
            throw error("unknown escape '\\\(Character(Unicode.Scalar(code)))'")
        }
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Validates and decodes a run of raw UTF-8 bytes inside a string.
    func decodeRun(_ range: Range<Int>) throws(JSONSyntaxError) -> String.UnicodeScalarView {
        var decoder = UTF8()
        var iterator = bytes[range].makeIterator()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return scalars
            case .error: throw error("a string holds bytes that are not valid UTF-8")
            }
        }
    }

    // MARK: helpers

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        let count = expected.count
        let matches = index + count <= bytes.count && bytes[index..<index + count].elementsEqual(expected)
        guard matches else { throw error("unexpected \(describeHere()); expected a value") }
        index += count
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipDigits() { while index < bytes.count && isDigit(bytes[index]) { index += 1 } }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func describeHere() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONSyntaxError(line: line, column: index - lineStart + 1, message: message)
    }
}
