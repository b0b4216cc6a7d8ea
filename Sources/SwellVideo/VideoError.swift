/// Why a video file cannot be played, in words a person can act on: what was found and what is
/// supported. The file's name and the JSON path are added by whoever loads the page.
public struct VideoError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable {
        /// The file is missing or unreadable.
        case unreadable
        /// FFmpeg cannot open the container, or finds no decoder for the codec.
        case unsupported
        /// The file opens but holds no video stream.
        case noVideo
        /// A picture could not be decoded or converted (reported, then skipped, while playing).
        case decoding
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
