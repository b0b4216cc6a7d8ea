import SwellRaster

/// What values a scene parameter accepts.
public enum ParameterKind: Equatable, Sendable {
    case number(ClosedRange<Double>)
    case integer(ClosedRange<Int>)
    case color
    case bool
    case text
    /// One of these words.
    case choice([String])
}

public enum ParameterValue: Equatable, Sendable {
    case number(Double)
    case color(Color)
    case bool(Bool)
    case text(String)
}

/// One parameter of a built-in scene: its name in scene files, what it accepts, its default.
public struct ParameterSpec: Sendable {
    public let name: String
    public let kind: ParameterKind
    public let defaultValue: ParameterValue
    public let help: String

    public init(_ name: String, _ kind: ParameterKind, _ defaultValue: ParameterValue, _ help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
    }

    public static func number(_ name: String, _ value: Double, in range: ClosedRange<Double>, _ help: String) -> Self {
        Self(name, .number(range), .number(value), help)
    }

    public static func integer(_ name: String, _ value: Int, in range: ClosedRange<Int>, _ help: String) -> Self {
        Self(name, .integer(range), .number(Double(value)), help)
    }

    public static func color(_ name: String, _ hex: String, _ help: String) -> Self {
        Self(name, .color, .color(Color(hex: hex)!), help)
    }

    public static func bool(_ name: String, _ value: Bool, _ help: String) -> Self {
        Self(name, .bool, .bool(value), help)
    }

    public static func text(_ name: String, _ value: String, _ help: String) -> Self {
        Self(name, .text, .text(value), help)
    }

    public static func choice(_ name: String, _ value: String, of options: [String], _ help: String) -> Self {
        precondition(options.contains(value), "the default of \(name) must be one of its options")
        return Self(name, .choice(options), .text(value), help)
    }

    /// What is allowed, for listings and error messages.
    public var allowed: String {
        switch kind {
        case .number(let range): "a number in \(format(range.lowerBound))...\(format(range.upperBound))"
        case .integer(let range): "a whole number in \(range.lowerBound)...\(range.upperBound)"
        case .color: "a colour \"#RRGGBB\" or \"#RRGGBBAA\""
        case .bool: "true or false"
        case .text: "a string"
        case .choice(let options): "one of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }

    public var defaultDescription: String { Self.describe(defaultValue) }

    static func describe(_ value: ParameterValue) -> String {
        switch value {
        case .number(let n): format(n)
        case .color(let c): "\"\(c.hexString)\""
        case .bool(let b): b ? "true" : "false"
        case .text(let s): "\"\(s)\""
        }
    }
}

/// Shortest readable form of a number: whole numbers without a fraction.
func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
}

/// A scene's parameter values: the file's where given, the defaults elsewhere.
public struct SceneSettings: Sendable {
    public let specs: [ParameterSpec]
    public private(set) var values: [String: ParameterValue]

    public init(specs: [ParameterSpec], overrides: [String: ParameterValue] = [:]) {
        self.specs = specs
        var values: [String: ParameterValue] = [:]
        for spec in specs { values[spec.name] = overrides[spec.name] ?? spec.defaultValue }
        self.values = values
    }

    public mutating func set(_ name: String, _ value: ParameterValue) {
        precondition(specs.contains { $0.name == name }, "no parameter \(name)")
        values[name] = value
    }

    public func number(_ name: String) -> Double {
        guard case .number(let n) = values[name] else { preconditionFailure("parameter \(name) is not a number") }
        return n
    }

    public func integer(_ name: String) -> Int { Int(number(name)) }

    public func color(_ name: String) -> Color {
        guard case .color(let c) = values[name] else { preconditionFailure("parameter \(name) is not a colour") }
        return c
    }

    public func bool(_ name: String) -> Bool {
        guard case .bool(let b) = values[name] else { preconditionFailure("parameter \(name) is not a boolean") }
        return b
    }

    public func text(_ name: String) -> String {
        guard case .text(let s) = values[name] else { preconditionFailure("parameter \(name) is not a string") }
        return s
    }
}

extension Color {
    /// Parses "#RRGGBB" or "#RRGGBBAA".
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9,
            let bits = UInt32(String(decoding: digits.dropFirst(), as: UTF8.self), radix: 16)
        else { return nil }
        let rgba = digits.count == 7 ? bits << 8 | 0xFF : bits
        func channel(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
        self.init(r: channel(24), g: channel(16), b: channel(8), a: channel(0))
    }

    /// "#RRGGBB", or "#RRGGBBAA" when not opaque.
    public var hexString: String {
        func byte(_ v: Double) -> String {
            let text = String(Int((min(max(v, 0), 1) * 255).rounded()), radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(r) + byte(g) + byte(b) + (a < 1 ? byte(a) : "")
    }
}

/// A built-in scene: its name, what it shows, its parameters and how to make one.
public struct SceneDescriptor: Sendable {
    public let name: String
    public let summary: String
    public let parameters: [ParameterSpec]
    /// Builds the scene: `media` holds the pictures of scenes that show images and the frames of
    /// a video (the caller decodes them on demand, so this module does no file I/O), `context`
    /// what every scene of the load shares (the text service).
    let build: @Sendable (SceneSettings, SceneMedia, SceneContext) -> any Scene

    public init(
        name: String, summary: String, parameters: [ParameterSpec],
        make: @escaping @Sendable (SceneSettings, SceneMedia, SceneContext) -> any Scene
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        build = make
    }

    public func defaultSettings() -> SceneSettings { SceneSettings(specs: parameters) }

    /// The scene for `settings`, showing `media`; scenes made with one `context` share its text
    /// service (a scene made alone gets one of its own).
    public func make(_ settings: SceneSettings, _ media: SceneMedia, _ context: SceneContext = SceneContext())
        -> any Scene
    {
        build(settings, media, context)
    }

    /// The scene with every parameter at its default.
    public func makeDefault(images: SceneImages = .none) -> any Scene {
        make(defaultSettings(), SceneMedia(images: images))
    }
}
