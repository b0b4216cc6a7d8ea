import CSysShims

#if canImport(Glibc)
    import Glibc
#endif

// Every call SwellSystem makes into the C library, in one place (as swift-system's
// Internals/Syscalls.swift): the typed wrappers around them (FileDescriptor, MappedMemory, the
// clock, whole-file reads, inotify, sockets, file status, atomic writes, locks and threads) call
// only these; CSysShims builds the sockets' addresses, which Swift cannot spell. Each returns
// what the C function returns; errno is read by the caller, right after.

@usableFromInline func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }

@usableFromInline func systemClose(_ fd: Int32) -> Int32 { close(fd) }

@usableFromInline func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@usableFromInline func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

@usableFromInline func systemIsatty(_ fd: Int32) -> Int32 { isatty(fd) }

@usableFromInline func systemFstat(_ fd: Int32, _ info: inout stat) -> Int32 { fstat(fd, &info) }

@usableFromInline func systemPoll(_ entries: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
    poll(entries, nfds_t(count), timeout)
}

@usableFromInline func systemMmap(_ length: Int, _ fd: Int32, _ offset: Int64) -> UnsafeMutableRawPointer? {
    let result = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
    return result == MAP_FAILED ? nil : result
}

@usableFromInline func systemMunmap(_ base: UnsafeMutableRawPointer, _ length: Int) -> Int32 { munmap(base, length) }

@usableFromInline func systemMsync(_ base: UnsafeMutableRawPointer, _ length: Int) -> Int32 {
    msync(base, length, MS_SYNC)
}

@usableFromInline func systemPageSize() -> Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

@usableFromInline func systemClockGettime(_ now: inout timespec) -> Int32 { clock_gettime(CLOCK_MONOTONIC, &now) }

@usableFromInline func systemRealtimeGettime(_ now: inout timespec) -> Int32 { clock_gettime(CLOCK_REALTIME, &now) }

@usableFromInline func systemThreadCPUGettime(_ now: inout timespec) -> Int32 {
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
}

@usableFromInline func systemClockNanosleepAbsolute(_ target: inout timespec) -> Int32 {
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil)
}

@usableFromInline func systemStrerror(_ number: Int32) -> String { String(cString: strerror(number)) }

@usableFromInline func systemErrno() -> Int32 { errno }

func systemOpendir(_ path: String) -> OpaquePointer? { opendir(path) }

func systemReaddir(_ directory: OpaquePointer) -> UnsafeMutablePointer<dirent>? { readdir(directory) }

func systemClosedir(_ directory: OpaquePointer) -> Int32 { closedir(directory) }

/// realpath(3) into a heap buffer the caller frees; nil when the path does not resolve.
@usableFromInline func systemRealpath(_ path: String) -> UnsafeMutablePointer<CChar>? { realpath(path, nil) }

@usableFromInline func systemAccess(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }

@usableFromInline func systemFree(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

@usableFromInline func systemThreadCreate(
    _ thread: inout pthread_t, _ main: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
    _ argument: UnsafeMutableRawPointer
) -> Int32 { pthread_create(&thread, nil, main, argument) }

@usableFromInline func systemThreadJoin(_ thread: pthread_t) -> Int32 { pthread_join(thread, nil) }

@usableFromInline func systemPinThreadToAllowed(_ index: Int32) -> Int32 { swell_pin_thread_to_allowed(index) }

@usableFromInline func systemKeepOffHelpers(_ helpers: Int32, _ saved: UnsafeMutablePointer<UInt64>) -> Int32 {
    swell_keep_off_helpers(helpers, saved)
}

@usableFromInline func systemRestoreAffinity(_ saved: UnsafePointer<UInt64>) -> Int32 { swell_restore_affinity(saved) }

@usableFromInline func systemMutexInit(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 {
    pthread_mutex_init(mutex, nil)
}

@usableFromInline func systemMutexDestroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 {
    pthread_mutex_destroy(mutex)
}

@usableFromInline func systemMutexLock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 {
    pthread_mutex_lock(mutex)
}

@usableFromInline func systemMutexUnlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 {
    pthread_mutex_unlock(mutex)
}

@usableFromInline func systemCondInit(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 {
    pthread_cond_init(condition, nil)
}

@usableFromInline func systemCondDestroy(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 {
    pthread_cond_destroy(condition)
}

@usableFromInline func systemCondWait(
    _ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>
) -> Int32 { pthread_cond_wait(condition, mutex) }

@usableFromInline func systemCondSignal(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 {
    pthread_cond_signal(condition)
}

@usableFromInline func systemCondBroadcast(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 {
    pthread_cond_broadcast(condition)
}

@usableFromInline func systemOpenCreating(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 {
    open(path, flags, permissions)
}

@usableFromInline func systemFsync(_ fd: Int32) -> Int32 { fsync(fd) }

@usableFromInline func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

@usableFromInline func systemUnlink(_ path: String) -> Int32 { unlink(path) }

@usableFromInline func systemMkdir(_ path: String, _ permissions: mode_t) -> Int32 { mkdir(path, permissions) }

@usableFromInline func systemStat(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }

@usableFromInline func systemLstat(_ path: String, _ info: inout stat) -> Int32 { lstat(path, &info) }

@usableFromInline func systemReadlink(_ path: String, _ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
    readlink(path, buffer, count)
}

@usableFromInline func systemSetErrno(_ number: Int32) { errno = number }

@usableFromInline func systemGetpid() -> Int32 { getpid() }

@usableFromInline func systemOnlineProcessors() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

@usableFromInline func systemEnvironment() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }

@usableFromInline func systemInotifyInit() -> Int32 { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }

@usableFromInline func systemInotifyAddWatch(_ fd: Int32, _ path: String, _ mask: UInt32) -> Int32 {
    inotify_add_watch(fd, path, mask)
}

@usableFromInline func systemInotifyRemoveWatch(_ fd: Int32, _ watch: Int32) -> Int32 { inotify_rm_watch(fd, watch) }

@usableFromInline func systemRecv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    recv(fd, buffer, count, 0)
}

@usableFromInline func systemUeventSocket() -> Int32 { swell_uevent_socket() }

@usableFromInline func systemUnixDatagramSocket() -> Int32 { swell_notify_socket() }

@usableFromInline func systemSendUnixDatagram(
    _ fd: Int32, _ path: UnsafePointer<CChar>, _ message: UnsafeRawPointer, _ count: Int
) -> Int32 { swell_notify_send(fd, path, message, count) }

@usableFromInline func systemLocaltime(_ unixSeconds: Int) -> tm {
    var time = time_t(unixSeconds)
    var parts = tm()
    _ = localtime_r(&time, &parts)
    return parts
}

@usableFromInline func systemMktime(_ parts: inout tm) -> time_t { mktime(&parts) }

@usableFromInline func systemRealtimeTimerCreate() -> Int32 { swell_realtime_timer() }

@usableFromInline func systemRealtimeTimerArmCancelOnSet(_ fd: Int32, _ seconds: Int) -> Int32 {
    swell_realtime_timer_arm_cancel_on_set(fd, seconds)
}

@usableFromInline func systemSetenv(_ name: String, _ value: String) { _ = setenv(name, value, 1) }

@usableFromInline func systemTzset() { tzset() }

/// A non-blocking eventfd, closed on exec.
@usableFromInline func systemEventfd() -> Int32 { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }

@usableFromInline func systemStatvfs(_ path: String, _ info: inout statvfs) -> Int32 { statvfs(path, &info) }

@usableFromInline func systemExecve(
    _ path: String, _ arguments: UnsafePointer<UnsafeMutablePointer<CChar>?>,
    _ environment: UnsafePointer<UnsafeMutablePointer<CChar>?>
) -> Int32 { execve(path, arguments, environment) }
