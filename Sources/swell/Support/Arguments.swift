/// A small command-line parser: positional arguments, `--name value` / `--name=value`
/// options and `--flag` switches, checked against what each verb declares.
struct OptionSpec: Sendable {
    let name: String
    /// The placeholder shown in help, e.g. "N" or "FILE"; nil for a switch.
    let value: String?
    let help: String

    static func option(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help)
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }
}

struct ParsedArguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    /// Every value of each option in order (`options` keeps the last): for repeatable ones.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []

    /// All values given for `option` (`--display A=x --display B=y`), in order.
    func values(_ option: String) -> [String] { repeated[option] ?? [] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    subscript(_ option: String) -> String? { options[option] }

    /// An integer option within `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = options[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw CommandFailure(
                ExitStatus.usage,
                "--\(name) wants a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// A `WxH` size option such as 1920x1080 (each side 1...16384), or nil when absent.
    func size(_ name: String) throws -> (width: Int, height: Int)? {
        guard let text = options[name] else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w),
            (1...16384).contains(h)
        else {
            throw CommandFailure(
                ExitStatus.usage, "--\(name) wants WIDTHxHEIGHT with sides 1...16384, such as 1920x1080, not '\(text)'")
        }
        return (w, h)
    }
}

/// One verb of the `swell` command.
struct Verb: Sendable {
    let name: String
    let summary: String
    /// The synopsis after `swell NAME`, e.g. "LIST.json -o FILE".
    let synopsis: String
    let details: String
    let options: [OptionSpec]
    let run: @Sendable (ParsedArguments) throws -> Int32

    var help: String {
        var text = "usage: swell \(name) \(synopsis)\n\n\(summary)\n"
        if !details.isEmpty { text += "\n\(details)\n" }
        if !options.isEmpty {
            text += "\noptions:\n"
            for option in options + [.flag("help", "show this help")] {
                let left = "  --\(option.name)" + (option.value.map { " \($0)" } ?? "")
                text += left.padding(to: 26) + option.help + "\n"
            }
        }
        return text
    }

    /// Parses `arguments` (after the verb) against this verb's options.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                parsed.positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            var name = String(argument.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "o" { name = "output" }
            if name == "h" { name = "help" }
            if name == "help" {
                parsed.flags.insert("help")
                continue
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw CommandFailure(ExitStatus.usage, "unknown option '\(argument)' (see 'swell \(self.name) --help')")
            }
            if spec.value == nil {
                guard inlineValue == nil else {
                    throw CommandFailure(ExitStatus.usage, "--\(name) takes no value")
                }
                parsed.flags.insert(name)
            } else if let value = inlineValue {
                parsed.options[name] = value
                parsed.repeated[name, default: []].append(value)
            } else {
                guard index < arguments.count else {
                    throw CommandFailure(ExitStatus.usage, "--\(name) needs a value \(spec.value!)")
                }
                parsed.options[name] = arguments[index]
                parsed.repeated[name, default: []].append(arguments[index])
                index += 1
            }
        }
        return parsed
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
