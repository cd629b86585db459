/// The policy's decisions: levels by live size, groups to merge.
extension MergePolicy {
    /// Groups of segments to merge, each as indexes into `segments`. No group holds more live documents than
    /// `documentsPerSegment`: a segment that fits with no other of its level is left as it is.
    package func merges(
        _ segments: [IndexMeta.SegmentMeta], documentsPerSegment: Int
    ) -> [[Int]] {
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
                    var group: [Int] = []
                    var documents = 0
                    for i in rest where group.count < maximumMergeAtOnce {
                        guard documents + segments[i].liveCount <= documentsPerSegment else { continue }
                        group.append(i)
                        documents += segments[i].liveCount
                    }
                    guard group.count >= 2 else {
                        // The first segment left fits with no other (with none when the group is empty).
                        rest.removeFirst()
                        continue
                    }
                    groups.append(group)
                    rest.removeAll { group.contains($0) }
                    if rest.count < mergeFactor { break }
                }
            } else {
                groups += heavy.map { [$0] }
            }
        }
        return groups
    }

    /// What `optimize()` merges: runs of consecutive segments, each with as many live documents as fit one
    /// segment, as indexes into `segments`; a run of one segment is listed only when it has deletes to drop.
    package static func mergesIntoFewest(
        _ segments: [IndexMeta.SegmentMeta], documentsPerSegment: Int
    ) -> [[Int]] {
        var runs: [[Int]] = []
        var run: [Int] = []
        var documents = 0
        for (i, segment) in segments.enumerated() {
            if !run.isEmpty && documents + segment.liveCount > documentsPerSegment {
                runs.append(run)
                run = []
                documents = 0
            }
            run.append(i)
            documents += segment.liveCount
        }
        if !run.isEmpty { runs.append(run) }
        return runs.filter { $0.count > 1 || segments[$0[0]].deletes != nil }
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
