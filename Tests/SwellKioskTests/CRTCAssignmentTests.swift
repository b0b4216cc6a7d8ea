import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// Whether `assigned` gives each output a CRTC its masks allow, and no CRTC twice.
private func isValid(_ assigned: [UInt32?], _ outputs: [CRTCCandidate], crtcIDs: [UInt32]) -> Bool {
    let used = assigned.compactMap { $0 }
    guard Set(used).count == used.count else { return false }
    for (output, crtc) in zip(outputs, assigned) {
        guard let crtc else { continue }
        guard let index = crtcIDs.firstIndex(of: crtc) else { return false }
        guard output.possibleCRTCMasks.contains(where: { $0 & (1 << UInt32(index)) != 0 }) else { return false }
    }
    return true
}

/// The most outputs any assignment can serve, by trying every CRTC (or none) for every output:
/// an independent reference for the matching.
private func mostServable(_ outputs: [CRTCCandidate], crtcIDs: [UInt32], from index: Int = 0, used: Set<Int> = [])
    -> Int
{
    guard index < outputs.count else { return 0 }
    var best = mostServable(outputs, crtcIDs: crtcIDs, from: index + 1, used: used)
    let mask = outputs[index].possibleCRTCMasks.reduce(0, |)
    for crtc in crtcIDs.indices where !used.contains(crtc) && mask & (1 << UInt32(crtc)) != 0 {
        best = max(best, 1 + mostServable(outputs, crtcIDs: crtcIDs, from: index + 1, used: used.union([crtc])))
    }
    return best
}

@Test func twoConnectorsGetDistinctCRTCsEvenWhenTheFirstCouldTakeTheSecondsOnlyOne() {
    // A greedy pick gives HDMI-A-1 CRTC 40 (its first), leaving HDMI-A-2 nothing.
    let outputs = [
        CRTCCandidate(name: "HDMI-A-1", possibleCRTCMasks: [0b11]),
        CRTCCandidate(name: "HDMI-A-2", possibleCRTCMasks: [0b01]),
    ]
    let assigned = assignCRTCs(outputs, crtcIDs: [40, 41])
    #expect(assigned == [41, 40])
}

@Test func anOutputKeepsTheCRTCDrivingItWhenThatLeavesTheOthersServed() {
    let outputs = [
        CRTCCandidate(name: "Virtual-1", currentCRTC: 51, possibleCRTCMasks: [0b111]),
        CRTCCandidate(name: "Virtual-2", possibleCRTCMasks: [0b111]),
    ]
    let assigned = assignCRTCs(outputs, crtcIDs: [50, 51, 52])
    #expect(assigned[0] == 51)
    #expect(assigned[1] != nil && assigned[1] != 51)
}

@Test func outputsBeyondWhatTheCRTCsCanDriveAreLeftWithoutOne() {
    let outputs = [
        CRTCCandidate(name: "DP-1", possibleCRTCMasks: [0b01]),
        CRTCCandidate(name: "DP-2", possibleCRTCMasks: [0b01]),
        CRTCCandidate(name: "DP-3", possibleCRTCMasks: []),
    ]
    let assigned = assignCRTCs(outputs, crtcIDs: [60, 61])
    #expect(assigned.compactMap { $0 } == [60])
    #expect(assigned[2] == nil)
}

@Test func theMatchingServesAsManyOutputsAsAnyAssignmentCould() {
    // Every mask combination of three outputs (one or two encoders each) over three CRTCs,
    // checked against an exhaustive search.
    let crtcIDs: [UInt32] = [70, 71, 72]
    var checked = 0
    for first in 0..<UInt32(8) {
        for second in 0..<UInt32(8) {
            for third in 0..<UInt32(64) {
                let outputs = [
                    CRTCCandidate(name: "A", possibleCRTCMasks: [first]),
                    CRTCCandidate(name: "B", currentCRTC: 72, possibleCRTCMasks: [second]),
                    CRTCCandidate(name: "C", possibleCRTCMasks: [third & 7, third >> 3]),
                ]
                let assigned = assignCRTCs(outputs, crtcIDs: crtcIDs)
                #expect(isValid(assigned, outputs, crtcIDs: crtcIDs), "\(first) \(second) \(third)")
                #expect(assigned.compactMap { $0 }.count == mostServable(outputs, crtcIDs: crtcIDs))
                checked += 1
            }
        }
    }
    #expect(checked == 8 * 8 * 64)
}
