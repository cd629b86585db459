/// Which documents of a segment are live, as the driver sees them: every document, or those its deleted-documents
/// file does not name. The one place scorers and collectors learn about deletes.
package struct LiveDocs {
    package let deleted: DeletedDocs?

    package init(_ deleted: DeletedDocs?) { self.deleted = deleted }

    @inline(__always) package func contains(_ doc: DocID) -> Bool { deleted.map { !$0.contains(doc) } ?? true }

    /// The live bits of documents `64 × index ..< 64 × (index + 1)`.
    @inline(__always) package func word(_ index: Int) -> UInt64 { deleted.map { ~$0.word(index) } ?? ~0 }

    /// Drops deleted documents from `block[start..<count]`, keeping the rest in order.
    @inline(__always)
    package func filter(_ block: inout ScoreBlock, from start: Int) {
        guard let deleted else { return }
        var kept = start
        for i in start..<block.count {
            let d = unsafe block.docs[i]
            guard !deleted.contains(d) else { continue }
            unsafe block.docs[kept] = d
            unsafe block.scores[kept] = block.scores[i]
            kept += 1
        }
        block.count = kept
    }
}
