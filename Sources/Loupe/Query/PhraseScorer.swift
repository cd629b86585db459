/// Documents where the terms occur at the given relative positions (an exact phrase), scored by BM25 with
/// the sum of the terms' idfs and the number of phrase occurrences as tf (tantivy's `PhraseScorer`).
///
/// Document candidates come from a leapfrog intersection of the terms' postings, rarest first; positions are
/// decoded only for documents in the intersection.
package final class PhraseScorer: Scorer {
    private struct Member {
        let postings: PostingsCursor
        let positions: PositionsCursor
        /// Position of this term inside the phrase.
        let offset: UInt32
    }

    private let members: [Member]
    private let norms: FieldNormsReader.Column?
    private let bm25: BM25Weight
    private var buffers: [[UInt32]]
    private var phraseFrequency: UInt32 = 0
    package private(set) var doc: DocID = 0

    /// - Parameter terms: each term's postings and positions cursors with its offset in the phrase.
    package init(
        terms: [(postings: PostingsCursor, positions: PositionsCursor, offset: UInt32)], norms: FieldNormsReader.Column?,
        bm25: BM25Weight
    ) {
        members = terms.map { Member(postings: $0.postings, positions: $0.positions, offset: $0.offset) }
            .sorted { $0.postings.documentFrequency < $1.postings.documentFrequency }
        self.norms = norms
        self.bm25 = bm25
        buffers = Array(repeating: [], count: terms.count)
        doc = unsafe members.isEmpty ? terminatedDoc : members[0].postings.doc
        doc = settle(from: doc)
    }

    package func advance() -> DocID {
        guard doc != terminatedDoc else { return doc }
        doc = settle(from: members[0].postings.advance())
        return doc
    }

    package func seek(_ target: DocID) -> DocID {
        guard doc < target else { return doc }
        doc = settle(from: members[0].postings.seek(target))
        return doc
    }

    package func score() -> Float {
        bm25.score(normCode: norms?.code(doc) ?? 0, termFrequency: phraseFrequency)
    }

    /// From candidate `start` (the lead cursor's document), the first document where every term is present and
    /// the phrase occurs.
    private func settle(from start: DocID) -> DocID {
        var candidate = start
        while candidate != terminatedDoc {
            var agreed = true
            for m in members.dropFirst() {
                let d = m.postings.seek(candidate)
                if d != candidate {
                    agreed = false
                    candidate = d == terminatedDoc ? terminatedDoc : members[0].postings.seek(d)
                    break
                }
            }
            if !agreed { continue }
            phraseFrequency = countPhrases()
            if phraseFrequency > 0 { return candidate }
            candidate = members[0].postings.advance()
        }
        return terminatedDoc
    }

    /// Occurrences of the phrase in the current document: positions p such that every term i is at p + offset_i.
    private func countPhrases() -> UInt32 {
        for (i, m) in members.enumerated() {
            let tf = Int(m.postings.termFrequency)
            if buffers[i].count < tf { buffers[i] = Array(repeating: 0, count: tf) }
            let ok = unsafe buffers[i].withUnsafeMutableBufferPointer {
                unsafe m.positions.read(ordinal: m.postings.positionsBefore, count: tf, into: $0.baseAddress!)
            }
            if !ok { return 0 }
        }
        // Intersect the shifted position lists (each sorted) with one cursor per term.
        let counts = members.map { Int($0.postings.termFrequency) }
        var cursors = [Int](repeating: 0, count: members.count)
        var found: UInt32 = 0
        while cursors[0] < counts[0] {
            let start = Int64(buffers[0][cursors[0]]) - Int64(members[0].offset)
            var matched = true
            for i in 1..<members.count {
                let want = start + Int64(members[i].offset)
                while cursors[i] < counts[i] && Int64(buffers[i][cursors[i]]) < want { cursors[i] += 1 }
                if cursors[i] == counts[i] { return found }
                if Int64(buffers[i][cursors[i]]) != want { matched = false }
            }
            if matched { found += 1 }
            cursors[0] += 1
        }
        return found
    }
}
