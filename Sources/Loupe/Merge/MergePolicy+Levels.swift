/// The policy's decisions: levels by live size, groups to merge.
extension MergePolicy {
    /// Groups of segments to merge, each as indexes into `segments`.
    package func merges(_ segments: [IndexMeta.SegmentMeta]) -> [[Int]] {
        guard mergeFactor < .max else { return [] }
        var levels: [Int: [Int]] = [:]
        for (i, segment) in segments.enumerated() {
            levels[level(of: segment), default: []].append(i)
        }
        var groups: [[Int]] = []
        for key in levels.keys.sorted() {
            let members = levels[key] ?? []
            let heavy = members.filter { deletedRatio(segments[$0]) > maximumDeletedRatio }
            if members.count >= mergeFactor {
                var rest = members
                while rest.count >= 2 {
                    let group = Array(rest.prefix(maximumMergeAtOnce))
                    groups.append(group)
                    rest.removeFirst(group.count)
                    if rest.count < mergeFactor { break }
                }
            } else {
                groups += heavy.map { [$0] }
            }
        }
        return groups
    }

    private func level(of segment: IndexMeta.SegmentMeta) -> Int {
        var size = max(segment.liveCount, 1)
        var level = 0
        guard size >= minimumSegmentSize else { return 0 }
        size /= minimumSegmentSize
        while size >= mergeFactor {
            size /= mergeFactor
            level += 1
        }
        return level + 1
    }

    private func deletedRatio(_ segment: IndexMeta.SegmentMeta) -> Double {
        segment.maxDoc == 0 ? 0 : Double(segment.maxDoc - segment.liveCount) / Double(segment.maxDoc)
    }
}
