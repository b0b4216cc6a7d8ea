import SwellSystem

/// The picture loader: one thread for the process that decodes and scales pictures ahead of
/// need (a slideshow's next picture, as soon as the one before it is on screen), so the render
/// thread only takes finished frames. Jobs run one at a time, in the order they were given;
/// each slideshow waits only for its own (`SlideFrames`).
///
/// One thread, started at the first job and never stopped (it sleeps while there is nothing to
/// do), whatever the number of slideshows: the pictures of a page's several slideshows are
/// decoded one after another, and no scene has a thread to join when it is dropped (a job keeps
/// what it works on alive until it is done). Starting it is the only allocation besides each
/// job's closure, one per picture change, never per frame.
final class PictureLoader: @unchecked Sendable {
    // @unchecked: `jobs` and `thread` are read and written only under `lock`.
    static let shared = PictureLoader()

    /// Condition 0: the thread waits for a job; condition 1: callers wait for jobs to finish.
    private let lock = ConditionLock(conditions: 2)
    private var jobs: [() -> Void] = []
    private var thread: Thread?
    /// Set once starting the thread failed (the process's thread limit): jobs run on the caller.
    private var unavailable = false

    private init() { jobs.reserveCapacity(8) }

    /// Queues `job` for the loader thread; false (and nothing queued) when no thread can be
    /// started, in which case the caller does the work itself.
    func submit(_ job: @escaping () -> Void) -> Bool {
        let queued = lock.withLock {
            if thread == nil && !unavailable {
                do { thread = try Thread { [self] in run() } } catch { unavailable = true }
            }
            guard thread != nil else { return false }
            jobs.append(job)
            return true
        }
        if queued { lock.signal(0) }
        return queued
    }

    /// Sleeps until `pending()` is false; it is checked under the loader's lock after each job
    /// (so it must take no lock that a job holds while it waits for this one: jobs take only their
    /// slideshow's, briefly).
    func wait(while pending: () -> Bool) { lock.wait(on: 1, while: pending) }

    private func run() {
        while true {
            lock.wait(on: 0) { jobs.isEmpty }
            let job = lock.withLock { jobs.removeFirst() }
            job()
            lock.broadcast(1)
        }
    }
}
