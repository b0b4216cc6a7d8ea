import CSysShims

#if canImport(Glibc)
    import Glibc
#endif

/// The x86-64 psABI level (1 to 4) this CPU and its kernel can run, from CPUID and XCR0: 3 has
/// AVX2 and FMA (x86-64-v3), 4 has AVX-512 (x86-64-v4). 0 on other architectures.
public func x86CPULevel() -> Int { Int(swell_x86_cpu_level()) }

/// The running program's own file, every link resolved (/proc/self/exe), or nil where /proc is
/// not mounted.
public func currentExecutablePath() -> String? { canonicalPath("/proc/self/exe") }

/// Whether `path` names a file this process may execute (access(2) X_OK).
public func isExecutableFile(_ path: String) -> Bool { systemAccess(path, X_OK) == 0 }

/// Replaces this process with the program at `path` (execve(2)), given `arguments` (the first is
/// its argv[0]) and `environment`. Returns only when that fails, with the reason.
public func replaceProcess(with path: String, arguments: [String], environment: [String: String]) -> Errno {
    let argumentCopies = arguments.map { strdup($0) }
    let environmentCopies = environment.map { strdup($0.key + "=" + $0.value) }
    defer { for copy in argumentCopies + environmentCopies { systemFree(copy) } }
    let argv = argumentCopies + [nil]
    let envp = environmentCopies + [nil]
    _ = argv.withUnsafeBufferPointer { argvBuffer in
        envp.withUnsafeBufferPointer { envpBuffer in
            systemExecve(path, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
        }
    }
    return Errno.current
}
