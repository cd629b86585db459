import LoupeAutomata
import LoupeCodec

/// The term dictionaries of every indexed field of a segment, read from the mapped `.terms` file (format v1 or
/// v2, by the footer's version).
package struct TermDictionaryReader: Sendable {
    private let file: FileSlice
    private let fields: [Int: FieldTermDictionary]

    /// Validates the footer, the directory and each field's block index. `postingsLength` and `positionsLength` are
    /// the bodies of the segment's postings and positions files: a term whose offsets point past them is damage.
    /// - Throws: `FormatError` with the byte offset of the first inconsistency.
    package init(file: FileSlice, verifyChecksum: Bool, postingsLength: Int, positionsLength: Int) throws(FormatError) {
        let limits = TermInfoLimits(postings: UInt64(postingsLength), positions: UInt64(positionsLength))
        let (body, directoryOffset, version) = unsafe try SegmentComponent.terms.versionedDirectory(
            file, verifyChecksum: verifyChecksum)
        var reader = unsafe ByteReader(body, offset: directoryOffset)
        var fields: [Int: FieldTermDictionary] = [:]
        let count = Int(try reader.readU32())
        let entrySize =
            version >= TermDictionaryFormat.blockedInfosVersion
            ? TermDictionaryFormat.directoryEntrySize : TermDictionaryFormat.v1DirectoryEntrySize
        guard count <= reader.remaining / entrySize else {
            throw .malformed(offset: directoryOffset, reason: "term dictionary directory lists \(count) fields")
        }
        for _ in 0..<count {
            if version >= TermDictionaryFormat.blockedInfosVersion {
                let (field, blocks) = unsafe try TermBlocksV2.read(
                    file: file.bytes, limit: directoryOffset, infoLimits: limits, entry: &reader)
                fields[field] = FieldTermDictionary(.v2(blocks))
            } else {
                let body = unsafe UnsafeRawBufferPointer(rebasing: body[..<directoryOffset])
                let (field, blocks) = unsafe try TermBlocksV1.read(body: body, infoLimits: limits, entry: &reader)
                fields[field] = FieldTermDictionary(.v1(blocks))
            }
        }
        self.file = file
        self.fields = fields
    }

    /// The dictionary of `field`, or nil when the segment has no terms for it.
    package func field(_ field: Int) -> FieldTermDictionary? { fields[field] }
}

/// One field's sorted terms: exact lookup, ordered iteration from any key, automaton intersection.
///
/// The views stay valid while the owning `TermDictionaryReader` (and so the mapped file) lives. Every read
/// throws `FormatError.malformed` on a damaged block (the block index itself was validated at open).
package struct FieldTermDictionary: Sendable {
    enum Layout: Sendable {
        case v1(TermBlocksV1)
        case v2(TermBlocksV2)
    }

    let layout: Layout

    init(_ layout: Layout) {
        self.layout = layout
    }

    package var termCount: Int {
        switch layout {
        case .v1(let blocks): blocks.termCount
        case .v2(let blocks): blocks.termCount
        }
    }

    /// Whether no document holds two of the field's terms (a single-valued keyword or numeric field), so that the
    /// documents holding any of some terms number the sum of their docFreqs; known from format v2 on.
    package var isSingleValued: Bool {
        switch layout {
        case .v1: false
        case .v2(let blocks): blocks.documentCount == blocks.postingsCount
        }
    }

    /// The info of `key`, or nil when the field has no such term.
    /// - Complexity: O(log(termCount / blockSize)) first-key comparisons plus one block's keys.
    package func get(_ key: UnsafeRawBufferPointer) throws(FormatError) -> TermInfo? {
        switch layout {
        case .v1(let blocks): unsafe try blocks.lookup(key)
        case .v2(let blocks): unsafe try blocks.lookup(key)
        }
    }

    package func get(_ key: [UInt8]) throws(FormatError) -> TermInfo? {
        let result = unsafe key.withUnsafeBytes { bytes in Result { () throws(FormatError) in unsafe try get(bytes) } }
        return try result.get()
    }

    /// A cursor on the very first term (on nothing if the field has none).
    package func cursorAtFirst() throws(FormatError) -> TermCursor {
        var cursor = TermCursor(layout)
        _ = try cursor.seekToFirst()
        return cursor
    }

    /// A cursor on the first term ≥ `key` (on nothing if there is none).
    package func cursor(from key: [UInt8]) throws(FormatError) -> TermCursor {
        var cursor = TermCursor(layout)
        let result = unsafe key.withUnsafeBytes { bytes in
            Result { () throws(FormatError) in unsafe try cursor.seek(bytes) }
        }
        _ = try result.get()
        return cursor
    }

    /// Appends every term `dfa` accepts to `matches`, in byte order, with its info and accept tag (see
    /// `TermDictionary+Automaton.swift`).
    package func matches(of dfa: ByteDFA, into matches: inout TermMatches) throws(FormatError) {
        switch layout {
        case .v1(let blocks): try blocks.matches(of: dfa, into: &matches)
        case .v2(let blocks): try blocks.matches(of: dfa, into: &matches)
        }
    }

    /// Σ docFreq of the terms in `lower...upper`, and at most how many terms they are (whole blocks), reading keys
    /// only in the two blocks at the ends; from format v2 on, a range over most of the field is the field's total
    /// less what lies outside it.
    package func docFreqSum(
        from lower: [UInt8], through upper: [UInt8]
    ) throws(FormatError) -> (
        docFreqs: UInt64, maximumTerms: Int
    ) {
        func edge(
            _ from: UnsafeRawBufferPointer, _ includingFrom: Bool, _ to: UnsafeRawBufferPointer, _ includingTo: Bool
        ) throws(FormatError) -> UInt64 {
            var total: UInt64 = 0
            try unsafe forEachTerm(
                from: Array(from), includingLower: includingFrom, to: Array(to), includingUpper: includingTo
            ) {
                _, info in
                total += UInt64(info.docFreq)
                return true
            }
            return total
        }
        let result = unsafe lower.withUnsafeBytes { low in
            unsafe upper.withUnsafeBytes { high in
                Result { () throws(FormatError) -> (docFreqs: UInt64, maximumTerms: Int) in
                    switch layout {
                    case .v1(let blocks): unsafe try blocks.docFreqSum(from: low, through: high, total: nil, edge: edge)
                    case .v2(let blocks):
                        unsafe try blocks.docFreqSum(from: low, through: high, total: blocks.postingsCount, edge: edge)
                    }
                }
            }
        }
        return try result.get()
    }

    /// Calls `visit` with every term in `lower...upper` (or `lower..<upper`), in byte order, until it returns false.
    package func forEachTerm(
        from lower: [UInt8], includingLower: Bool, to upper: [UInt8]?, includingUpper: Bool,
        _ visit: (UnsafeRawBufferPointer, TermInfo) -> Bool
    ) throws(FormatError) {
        var cursor = try cursor(from: lower)
        while cursor.isValid {
            let info = cursor.info
            let keepGoing = unsafe cursor.withKeyBytes { key in
                if !includingLower {
                    let c = unsafe lower.withUnsafeBytes { unsafe compareBytes(key, $0) }
                    if c == 0 { return true }
                }
                if let upper {
                    let c = unsafe upper.withUnsafeBytes { unsafe compareBytes(key, $0) }
                    if c > 0 || (c == 0 && !includingUpper) { return false }
                }
                return unsafe visit(key, info)
            }
            guard keepGoing else { return }
            _ = try cursor.next()
        }
    }

    /// Walks the terms of a field in byte order, decoding one block at a time.
    package struct TermCursor {
        // Exactly one is set. Two optionals rather than an enum so that mutating calls work in place (an enum's
        // payload would be copied out, and its key buffer with it).
        private var v1: BlockCursor<TermBlocksV1>?
        private var v2: BlockCursor<TermBlocksV2>?

        fileprivate init(_ layout: Layout) {
            switch layout {
            case .v1(let blocks): v1 = BlockCursor(blocks)
            case .v2(let blocks): v2 = BlockCursor(blocks)
            }
        }

        /// False once the cursor has moved past the last term.
        package var isValid: Bool { v2?.isValid ?? v1?.isValid ?? false }

        /// The current term's info.
        package var info: TermInfo {
            v2?.info ?? v1?.info ?? TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
        }

        /// The current term's bytes.
        package var keyBytes: [UInt8] { v2?.keyBytes ?? v1?.keyBytes ?? [] }

        /// Calls `body` with the current term's bytes, without copying them.
        package func withKeyBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            if let v2 { return unsafe v2.withKeyBytes(body) }
            if let v1 { return unsafe v1.withKeyBytes(body) }
            return unsafe body(UnsafeRawBufferPointer(start: nil, count: 0))
        }

        /// Compares the current term with `other`: negative, zero or positive.
        package func compareKey(to other: UnsafeRawBufferPointer) -> Int {
            unsafe withKeyBytes { unsafe compareBytes($0, other) }
        }

        /// Moves to the next term; false at the end.
        /// - Throws: `.malformed` on a damaged block (the cursor is then past the end).
        package mutating func next() throws(FormatError) -> Bool {
            if v2 != nil { return try v2?.next() ?? false }
            return try v1?.next() ?? false
        }

        /// Positions on the first term ≥ `target`; returns whether there is one.
        /// - Throws: `.malformed` on a damaged block.
        package mutating func seek(_ target: UnsafeRawBufferPointer) throws(FormatError) -> Bool {
            if v2 != nil { return unsafe try v2?.seek(target) ?? false }
            return unsafe try v1?.seek(target) ?? false
        }

        fileprivate mutating func seekToFirst() throws(FormatError) -> Bool {
            if v2 != nil { return try v2?.seekToFirst() ?? false }
            return try v1?.seekToFirst() ?? false
        }
    }
}

extension SegmentReader {
    /// Runs `body` on the segment's term dictionaries; a damaged block becomes an `IndexError` naming the file.
    /// - Throws: `IndexError` `.corruption` with the terms file, the segment and the byte offset.
    package func readingTerms<R>(_ body: (TermDictionaryReader) throws(FormatError) -> R) throws(IndexError) -> R {
        do {
            return try body(terms)
        } catch {
            throw IndexError(format: error, file: SegmentComponent.terms.fileName(id), segment: id)
        }
    }
}
