import SwellSystem
import Testing

// The launcher of the x86-64 package (Sources/swell/Support/CPUFlavour.swift) picks a build from
// x86CPULevel(); the kernel's own view of the CPU, /proc/cpuinfo's flags, is the reference.

/// The x86-64 psABI level /proc/cpuinfo's flags give (1 to 4), or nil where there are none.
private func levelFromKernelFlags() throws -> Int? {
    let text = String(decoding: try readWholeFile("/proc/cpuinfo", limit: 1 << 22), as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
        let colon = line.firstIndex(of: ":")
    else { return nil }
    let flags = Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
    let v2 = ["cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"]
    let v3 = ["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe"]
    let v4 = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]
    guard flags.isSuperset(of: v2) else { return 1 }
    guard flags.isSuperset(of: v3) else { return 2 }
    return flags.isSuperset(of: v4) ? 4 : 3
}

@Test func theCPULevelAgreesWithTheKernelsFlags() throws {
    #if arch(x86_64)
        let expected = try #require(try levelFromKernelFlags())
        #expect(x86CPULevel() == expected)
    #else
        #expect(x86CPULevel() == 0)
    #endif
}

@Test func theRunningProgramKnowsItsOwnFile() throws {
    let path = try #require(currentExecutablePath())
    #expect(path.hasPrefix("/"))
    #expect(isExecutableFile(path))
    #expect(!isExecutableFile("/proc/cpuinfo"))
}

@Test func aFailedExecReturnsItsReason() {
    // execve of a file that is not a program fails at once and leaves this process running.
    let failure = replaceProcess(with: "/proc/cpuinfo", arguments: ["cpuinfo"], environment: [:])
    #expect(failure == .accessDenied)
}
