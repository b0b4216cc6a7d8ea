import SwellService

/// What CRTC assignment needs to know of one output: the CRTC driving it now (0: none) and,
/// for each encoder it can use, the encoder's `possible_crtcs` mask (bit i: the card's i-th CRTC).
public struct CRTCCandidate: Sendable, Equatable {
    public var name: String
    public var currentCRTC: UInt32
    public var possibleCRTCMasks: [UInt32]

    public init(name: String, currentCRTC: UInt32 = 0, possibleCRTCMasks: [UInt32]) {
        self.name = name
        self.currentCRTC = currentCRTC
        self.possibleCRTCMasks = possibleCRTCMasks
    }

    /// The CRTC ids this output can use, the one driving it now first (keeping it avoids a
    /// needless modeset flash), then in the card's order.
    func usableCRTCs(of crtcIDs: [UInt32]) -> [UInt32] {
        let mask = possibleCRTCMasks.reduce(0, |)
        var usable = crtcIDs.enumerated().filter { $0.offset < 32 && mask & (1 << UInt32($0.offset)) != 0 }
            .map(\.element)
        if let current = usable.firstIndex(of: currentCRTC) { usable.insert(usable.remove(at: current), at: 0) }
        return usable
    }
}

/// Gives each output a CRTC of its own that one of its encoders can drive, or nil for the
/// outputs that cannot all be served. Two outputs must never share a CRTC (the second modeset
/// would take the first's picture away), and a greedy pick can strand an output (A can use 0
/// or 1, B only 0: A taking 0 leaves B nothing), so this is a bipartite matching by augmenting
/// paths; a few outputs and CRTCs make it instant.
public func assignCRTCs(_ outputs: [CRTCCandidate], crtcIDs: [UInt32]) -> [UInt32?] {
    let usable = outputs.map { $0.usableCRTCs(of: crtcIDs) }
    var owner: [UInt32: Int] = [:]
    func place(_ output: Int, visited: inout Set<UInt32>) -> Bool {
        for crtc in usable[output] where !visited.contains(crtc) {
            visited.insert(crtc)
            if let holder = owner[crtc], !place(holder, visited: &visited) { continue }
            owner[crtc] = output
            return true
        }
        return false
    }
    for output in outputs.indices {
        var visited: Set<UInt32> = []
        _ = place(output, visited: &visited)
    }
    var result = [UInt32?](repeating: nil, count: outputs.count)
    for (crtc, output) in owner { result[output] = crtc }
    return result
}
