import SwellSystem

/// Wrong tokens counted per client address: after `limit` within `window` seconds the address
/// is refused (429) for `block` seconds, doubled at each further block up to 15 minutes. A right
/// token clears its address. At most `capacity` addresses are kept (the oldest go first), so a
/// flood from many addresses cannot grow it.
public final class FailedLogins: @unchecked Sendable {
    public let limit: Int
    public let window: Double
    public let block: Double
    public let capacity: Int
    private let clock: @Sendable () -> Double
    private let lock = Lock()
    private var entries: [String: Entry] = [:]

    private struct Entry {
        var failures: [Double] = []
        var blockedUntil = -Double.infinity
        var blocks = 0
        var lastSeen = 0.0
    }

    public init(
        limit: Int = 5, window: Double = 60, block: Double = 60, capacity: Int = 4096,
        clock: @escaping @Sendable () -> Double = monotonicSeconds
    ) {
        self.limit = limit
        self.window = window
        self.block = block
        self.capacity = capacity
        self.clock = clock
    }

    /// Seconds `address` must still wait (nil: it may try).
    public func blocked(_ address: String) -> Double? {
        let now = clock()
        return lock.withLock {
            guard let until = entries[address]?.blockedUntil, until > now else { return nil }
            return until - now
        }
    }

    /// Counts a wrong token from `address`: how many in the window, and the block it brought on.
    public func failed(_ address: String) -> (count: Int, blockedFor: Double?) {
        let now = clock()
        return lock.withLock {
            if entries[address] == nil, entries.count >= capacity,
                let oldest = entries.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key
            {
                entries[oldest] = nil
            }
            var entry = entries[address] ?? Entry()
            entry.lastSeen = now
            entry.failures = entry.failures.filter { $0 > now - window } + [now]
            var blockedFor: Double?
            if entry.failures.count >= limit {
                let seconds = min(block * Double(1 << min(entry.blocks, 10)), 900)
                entry.blockedUntil = now + seconds
                entry.blocks += 1
                entry.failures = []
                blockedFor = seconds
            }
            entries[address] = entry
            return (blockedFor == nil ? entry.failures.count : limit, blockedFor)
        }
    }

    public func succeeded(_ address: String) {
        lock.withLock { entries[address] = nil }
    }
}
