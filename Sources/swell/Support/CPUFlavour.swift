import CSysShims
import SwellSystem

// One x86-64 package, the best kernels for the CPU it lands on. The package installs three builds
// of the whole program, each compiled for one psABI level:
//   /usr/bin/swell                    baseline: any x86-64 CPU (SSE2); also the launcher
//   /usr/lib/swell/x86-64-v3/swell    AVX2 and FMA (Haswell and later, Zen, the Atom N100)
//   /usr/lib/swell/x86-64-v4/swell    AVX-512 (Skylake-SP and later Xeons, Zen 4 and 5)
// Before anything else, the baseline build asks the CPU (CPUID and XCR0: SwellSystem's
// x86CPULevel) for the highest level it runs and replaces itself (execve) with that build, found
// beside it as ../lib/swell/NAME/swell, so the build tree's `scripts/build --flavours` layout
// works the same as the package's. SWELL_CPU=NAME forces one, for tests and for comparing
// flavours on one box. The exec costs about a millisecond once per start; the alternative, a
// shared library of kernels in glibc-hwcaps folders, would put a dynamic call in every kernel and
// hand the Swift optimiser a module boundary in the hot loops. A build compiled for anything but
// the baseline (the other flavours, `scripts/build`'s tuned builds, arm64) runs as it is.

/// The CPU flavours of the x86-64 package, slowest first.
enum CPUFlavour: String, CaseIterable {
    case baseline
    case v3 = "x86-64-v3"
    case v4 = "x86-64-v4"

    /// The psABI level the flavour is compiled for (x86CPULevel's scale).
    var level: Int {
        switch self {
        case .baseline: 1
        case .v3: 3
        case .v4: 4
        }
    }

    /// The build of this flavour beside a launcher in `binFolder`: /usr/bin's is
    /// /usr/lib/swell/NAME/swell.
    func path(besideLauncherIn binFolder: String) -> String {
        parentFolder(binFolder) + "/lib/swell/" + rawValue + "/swell"
    }
}

/// The environment variable that forces a flavour.
let flavourVariable = "SWELL_CPU"
/// Set by the launcher for the build it starts: how that build was chosen ("cpu" or "forced").
let flavourChoiceVariable = "SWELL_CPU_CHOSEN"

/// What this binary was compiled for, by the flavours' names: "baseline", "x86-64-v3",
/// "x86-64-v4" (and, for the Arm tunings, "armv8-a+crc" or "armv8.2-a").
func compiledFlavourName() -> String {
    switch String(cString: swell_cpu_flavour()) {
    case "x86-64", "aarch64": "baseline"
    case let other: other
    }
}

#if arch(x86_64)
    private let baselineNeeds = "any x86-64 CPU"
#else
    private let baselineNeeds = "any 64-bit Arm CPU"
#endif

/// What a flavour needs of the CPU, for `swell --version`.
func flavourNeeds(_ name: String) -> String? {
    [
        "baseline": baselineNeeds,
        "x86-64-v2": "SSE4.2 and POPCNT", "x86-64-v3": "AVX2 and FMA", "x86-64-v4": "AVX-512",
        "armv8-a+crc": "Cortex-A72 and later: Raspberry Pi 4", "armv8.2-a": "Cortex-A76 and later: Raspberry Pi 5",
    ][name]
}

/// A flavour that cannot run: the message names the variable, the CPU and the fix.
struct FlavourFailure: Error {
    let status: Int32
    let message: String
}

/// Runs first in every start of swell. In the baseline build on x86-64, replaces this process with
/// the build SWELL_CPU names or, without it, the best build beside it that this CPU runs; returns
/// only to go on in this binary, with how it came to run for `swell --version` (nil: nothing chose
/// it, as for a build run directly or the only one installed).
func launchCPUFlavour() throws(FlavourFailure) -> String? {
    let environment = processEnvironment()
    let level = x86CPULevel()
    guard compiledFlavourName() == "baseline", level > 0 else {
        switch environment[flavourChoiceVariable] {
        case "cpu": return "chosen for this CPU"
        case "forced": return "forced by \(flavourVariable)"
        default: return nil
        }
    }
    let runnable = CPUFlavour.allCases.filter { $0.level <= level }.map(\.rawValue).joined(separator: ", ")
    let binFolder = currentExecutablePath().map(parentFolder) ?? "/usr/bin"
    if let name = environment[flavourVariable], !name.isEmpty {
        guard let flavour = CPUFlavour(rawValue: name) else {
            throw FlavourFailure(
                status: ExitStatus.configuration,
                message: "\(flavourVariable)=\(name) is not a CPU flavour: use baseline, x86-64-v3 or x86-64-v4, "
                    + "or unset \(flavourVariable) to choose for this CPU")
        }
        guard flavour.level <= level else {
            throw FlavourFailure(
                status: ExitStatus.configuration,
                message: "\(flavourVariable)=\(name): this CPU cannot run it (it needs \(flavourNeeds(name) ?? name)); "
                    + "this CPU runs \(runnable), or unset \(flavourVariable) to choose for this CPU")
        }
        if flavour == .baseline { return "forced by \(flavourVariable)" }
        let path = flavour.path(besideLauncherIn: binFolder)
        guard isExecutableFile(path) else {
            throw FlavourFailure(
                status: ExitStatus.unavailable,
                message: "\(flavourVariable)=\(name): there is no \(name) build at \(path); "
                    + "reinstall the package swell, or unset \(flavourVariable)")
        }
        let failure = start(path, choice: "forced", environment: environment)
        throw FlavourFailure(
            status: ExitStatus.unavailable, message: "\(flavourVariable)=\(name): cannot start \(path): \(failure)")
    }
    let installed = CPUFlavour.allCases.dropFirst().filter { isExecutableFile($0.path(besideLauncherIn: binFolder)) }
    guard !installed.isEmpty else { return nil }
    for flavour in installed.reversed() where flavour.level <= level {
        let path = flavour.path(besideLauncherIn: binFolder)
        let failure = start(path, choice: "cpu", environment: environment)
        // A kiosk keeps running: the baseline build draws the same pixels, slower.
        writeToStandardError(
            "swell: cannot start the \(flavour.rawValue) build \(path) (\(failure)); running the baseline build\n")
        return "the \(flavour.rawValue) build would not start"
    }
    return "chosen for this CPU"
}

/// Replaces this process with the build at `path`, telling it how it was chosen; returns why not.
private func start(_ path: String, choice: String, environment: [String: String]) -> Errno {
    var environment = environment
    environment[flavourChoiceVariable] = choice
    return replaceProcess(with: path, arguments: CommandLine.arguments, environment: environment)
}

/// The folder `path` lies in ("/" for "/usr"; "." for a bare name).
private func parentFolder(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}
