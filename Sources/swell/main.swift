import CSysShims
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Every verb of `swell`, in the order `swell --help` lists them. Each lives in Commands/.
let verbs: [Verb] = [
    runVerb,
    showVerb,
    displaysVerb,
    touchTestVerb,
    scenesVerb,
    renderVerb,
    dumpVerb,
    scheduleVerb,
    diffVerb,
    benchVerb,
    tokenVerb,
]

/// Writes one message to standard error (unbuffered, so it is never lost on exit).
func printError(_ message: String) {
    writeToStandardError(message.hasSuffix("\n") ? message : message + "\n")
}

func overview() -> String {
    var text =
        "usage: swell VERB [ARGUMENTS] [--help]\n       swell --version\n\nSwell draws waves, ripples and elastic shapes for Linux kiosk screens.\n\nverbs:\n"
    for verb in verbs { text += "  " + verb.name.padding(to: 12) + verb.summary + "\n" }
    return text
}

/// `swell --version`: the version scripts/build wrote into the binary ("unknown" for a plain
/// `swift build`), the CPU flavour running and how it was chosen (CPUFlavour.swift), so a kiosk's
/// admin can tell the builds apart: "swell 0.1+git…, flavour x86-64-v4 (AVX-512), chosen for this CPU".
func versionText(flavourChoice: String?) -> String {
    let flavour = compiledFlavourName()
    let needs = flavourNeeds(flavour).map { " (\($0))" } ?? ""
    let choice = flavourChoice.map { ", " + $0 } ?? ""
    return "swell \(String(cString: swell_build_version())), flavour \(flavour)\(needs)\(choice)\n"
}

func runSwell(_ arguments: [String], flavourChoice: String?) -> Int32 {
    guard let first = arguments.first else {
        printError(overview())
        return ExitStatus.usage
    }
    if first == "--version" {
        print(versionText(flavourChoice: flavourChoice), terminator: "")
        return ExitStatus.success
    }
    if first == "--help" || first == "-h" || first == "help" {
        print(overview(), terminator: "")
        return ExitStatus.success
    }
    guard let verb = verbs.first(where: { $0.name == first }) else {
        printError("swell: unknown verb '\(first)'\n\n" + overview())
        return ExitStatus.usage
    }
    do {
        let parsed = try verb.parse(Array(arguments.dropFirst()))
        if parsed.has("help") {
            print(verb.help, terminator: "")
            return ExitStatus.success
        }
        return try verb.run(parsed)
    } catch let failure as CommandFailure {
        printError("swell \(verb.name): \(failure.message)")
        return failure.status
    } catch {
        printError("swell \(verb.name): \(error)")
        return 1
    }
}

// The best build for this CPU first (it replaces this process), then the verb.
do throws(FlavourFailure) {
    let flavourChoice = try launchCPUFlavour()
    keepLargeBlocksOutOfTheHeap()
    exit(runSwell(Array(CommandLine.arguments.dropFirst()), flavourChoice: flavourChoice))
} catch {
    printError("swell: \(error.message)")
    exit(error.status)
}
