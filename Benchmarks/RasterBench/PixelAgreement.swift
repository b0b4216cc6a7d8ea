import SwellRaster

/// How closely two renderings of one frame agree, over the R, G and B channels of every pixel.
struct PixelAgreement {
    /// Mean absolute difference per channel, in 8-bit steps.
    var meanChannelDifference: Double
    /// The largest channel difference anywhere, and the first pixel where it occurs.
    var maxChannelDifference: Int
    var maxDifferenceAt: (x: Int, y: Int)
    /// Fraction of pixels (0...1) where some channel differs by more than `visibleThreshold`.
    var visiblyDifferentFraction: Double

    /// A difference larger than this is visible on a flat area; smaller ones are antialiasing detail.
    static let visibleThreshold = 16

    init(
        meanChannelDifference: Double, maxChannelDifference: Int, maxDifferenceAt: (x: Int, y: Int),
        visiblyDifferentFraction: Double
    ) {
        self.meanChannelDifference = meanChannelDifference
        self.maxChannelDifference = maxChannelDifference
        self.maxDifferenceAt = maxDifferenceAt
        self.visiblyDifferentFraction = visiblyDifferentFraction
    }

    init(_ a: PixelSurface, _ b: PixelSurface) {
        precondition(a.width == b.width && a.height == b.height, "compared surfaces differ in size")
        var total = 0
        var largest = 0
        var largestAt = (x: 0, y: 0)
        var visible = 0
        for y in 0..<a.height {
            let rowA = a.row(y)
            let rowB = b.row(y)
            for x in 0..<a.width {
                let pa = rowA[x]
                let pb = rowB[x]
                var pixelLargest = 0
                for shift in [UInt32(0), 8, 16] {
                    let difference = abs(Int((pa >> shift) & 0xFF) - Int((pb >> shift) & 0xFF))
                    total += difference
                    pixelLargest = max(pixelLargest, difference)
                }
                if pixelLargest > largest {
                    largest = pixelLargest
                    largestAt = (x, y)
                }
                if pixelLargest > Self.visibleThreshold { visible += 1 }
            }
        }
        let pixels = a.width * a.height
        meanChannelDifference = Double(total) / Double(pixels * 3)
        maxChannelDifference = largest
        maxDifferenceAt = largestAt
        visiblyDifferentFraction = Double(visible) / Double(pixels)
    }
}
