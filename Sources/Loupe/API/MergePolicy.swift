/// Which segments to merge: tantivy's log merge policy, plus merges that expunge deletes.
///
/// Segments are put in levels by their live document count, each level `mergeFactor` times larger than the one
/// below (every segment under `minimumSegmentSize` documents is level 0, so the tiny segments of frequent small
/// commits collapse together). A level holding `mergeFactor` segments or more is merged, at most
/// `maximumMergeAtOnce` segments at a time; the segment count therefore stays about `mergeFactor × log(documents)`.
/// A segment whose deleted share passes `maximumDeletedRatio` is rewritten with its level's merge, or alone.
public struct MergePolicy: Sendable, Hashable {
    /// How many times larger each level is than the one below, and how many segments of a level trigger a merge.
    public var mergeFactor: Int
    /// The most segments one merge takes.
    public var maximumMergeAtOnce: Int
    /// Segments with fewer live documents than this are all level 0.
    public var minimumSegmentSize: Int
    /// A segment whose deleted share of documents passes this is rewritten.
    public var maximumDeletedRatio: Double

    /// A policy; factors below 2 and sizes below 1 are raised to them.
    public init(
        mergeFactor: Int = 8, maximumMergeAtOnce: Int = 10, minimumSegmentSize: Int = 1_000,
        maximumDeletedRatio: Double = 0.3
    ) {
        self.mergeFactor = max(2, mergeFactor)
        self.maximumMergeAtOnce = max(2, maximumMergeAtOnce)
        self.minimumSegmentSize = max(1, minimumSegmentSize)
        self.maximumDeletedRatio = maximumDeletedRatio
    }

    /// The default policy.
    public static let logarithmic = MergePolicy()
    /// Never merges on its own (`IndexWriter.merge()` and `Index.optimize()` still do).
    public static let never = MergePolicy(
        mergeFactor: .max, maximumMergeAtOnce: 2, minimumSegmentSize: 1, maximumDeletedRatio: 2)
}
