#if canImport(Glibc)
import Glibc
#endif
import LoupeCodec

/// The term dictionaries of every indexed field of a segment, read from the mapped `.terms` file.
package struct TermDictionaryReader: Sendable {
    private let file: FileSlice
    private let fields: [Int: FieldTermDictionary]

    /// Validates the footer, the directory and each field's block index bounds.
    package init(file: FileSlice, verifyChecksum: Bool) throws(FormatError) {
        let (body, directoryOffset) = unsafe try SegmentComponent.terms.directory(file, verifyChecksum: verifyChecksum)
        var reader = unsafe ByteReader(body, offset: directoryOffset)
        var fields: [Int: FieldTermDictionary] = [:]
        for _ in 0..<Int(try reader.readU32()) {
            let entryOffset = reader.offset
            let field = Int(try reader.readU32())
            let terms = Int(clamping: try reader.readU64())
            let section = Int(clamping: try reader.readU64())
            let index = Int(clamping: try reader.readU64())
            let blocks = Int(try reader.readU32())
            let keys = Int(clamping: try reader.readU64())
            let blockSize = TermDictionaryFormat.blockSize
            guard section <= index, index <= keys, keys <= directoryOffset,
                blocks == (terms + blockSize - 1) / blockSize,
                (keys - index) == blocks * TermDictionaryFormat.indexEntrySize
            else {
                throw .malformed(offset: entryOffset, reason: "term dictionary of field \(field) has inconsistent bounds")
            }
            let dictionary = unsafe FieldTermDictionary(
                body: UnsafeRawBufferPointer(rebasing: body[..<directoryOffset]), termCount: terms, sectionOffset: section,
                indexOffset: index, blockCount: blocks, keysOffset: keys)
            try dictionary.validateIndex()
            fields[field] = dictionary
        }
        self.file = file
        self.fields = fields
    }

    /// The dictionary of `field`, or nil when the segment has no terms for it.
    package func field(_ field: Int) -> FieldTermDictionary? { fields[field] }
}

/// One field's sorted terms: exact lookup and ordered iteration from any key.
///
/// The raw views stay valid while the owning `TermDictionaryReader` (and so the mapped file) lives.
@safe
package struct FieldTermDictionary: @unchecked Sendable {
    private let body: UnsafeRawBufferPointer
    package let termCount: Int
    private let sectionOffset: Int
    private let indexOffset: Int
    private let blockCount: Int
    private let keysOffset: Int

    fileprivate init(
        body: UnsafeRawBufferPointer, termCount: Int, sectionOffset: Int, indexOffset: Int, blockCount: Int,
        keysOffset: Int
    ) {
        unsafe self.body = unsafe body
        self.termCount = termCount
        self.sectionOffset = sectionOffset
        self.indexOffset = indexOffset
        self.blockCount = blockCount
        self.keysOffset = keysOffset
    }

    fileprivate func validateIndex() throws(FormatError) {
        for b in 0..<blockCount {
            let entry = indexOffset + b * TermDictionaryFormat.indexEntrySize
            let start = unsafe sectionOffset + Int(clamping: body.loadU64LE(at: entry))
            let keyStart = unsafe keysOffset + Int(body.loadU32LE(at: entry + 8))
            let keyLength = unsafe Int(body.loadU32LE(at: entry + 12))
            guard start < indexOffset, unsafe keyStart + keyLength <= body.count else {
                throw .malformed(offset: entry, reason: "term block \(b) points outside its section")
            }
        }
    }

    private func firstKey(_ block: Int) -> UnsafeRawBufferPointer {
        let entry = indexOffset + block * TermDictionaryFormat.indexEntrySize
        let start = unsafe keysOffset + Int(body.loadU32LE(at: entry + 8))
        return unsafe UnsafeRawBufferPointer(rebasing: body[start..<(start + Int(body.loadU32LE(at: entry + 12)))])
    }

    private func blockStart(_ block: Int) -> Int {
        unsafe sectionOffset + Int(clamping: body.loadU64LE(at: indexOffset + block * TermDictionaryFormat.indexEntrySize))
    }

    /// The last block whose first key is ≤ `key`, or -1 if `key` sorts before every term.
    private func block(containing key: UnsafeRawBufferPointer) -> Int {
        var lo = 0
        var hi = blockCount - 1
        var found = -1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if unsafe compareBytes(firstKey(mid), key) <= 0 {
                found = mid
                lo = mid + 1
            } else {
                hi = mid - 1
            }
        }
        return found
    }

    /// The info of `key`, or nil when the field has no such term.
    /// - Complexity: O(log(termCount / 32)) comparisons plus decoding one block of ≤ 32 terms.
    ///
    /// Scans the block without rebuilding keys: it tracks how many leading bytes the previous key shares with
    /// `key`. Keys are sorted, so a term whose shared prefix with its predecessor is longer than that match
    /// still sorts before `key`, and one whose prefix is shorter sorts after it (the scan stops).
    package func get(_ key: UnsafeRawBufferPointer) -> TermInfo? {
        let b = unsafe block(containing: key)
        guard b >= 0, let base = unsafe body.baseAddress else { return nil }
        let end = b + 1 < blockCount ? blockStart(b + 1) : indexOffset
        var offset = blockStart(b)
        var info = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
        var matched = 0
        while offset < end {
            guard let prefix = unsafe VInt.decode(base, at: &offset, end: end), let suffixLength = unsafe VInt.decode(base, at: &offset, end: end),
                suffixLength <= UInt64(end - offset)
            else { return nil }
            let suffixStart = offset
            offset += Int(suffixLength)
            guard let docFreq = unsafe VInt.decode(base, at: &offset, end: end), docFreq <= UInt64(UInt32.max),
                let postings = unsafe VInt.decode(base, at: &offset, end: end), let positions = unsafe VInt.decode(base, at: &offset, end: end)
            else { return nil }
            info.docFreq = UInt32(docFreq)
            info.postingsOffset &+= postings
            info.positionsOffset &+= positions
            let p = Int(clamping: prefix)
            if p > matched { continue }
            if p < matched { return nil }
            let n = Int(suffixLength)
            var i = 0
            while unsafe i < n && p + i < key.count && base.load(fromByteOffset: suffixStart + i, as: UInt8.self) == key[p + i] {
                i += 1
            }
            if i == n && p + i == key.count { return info }
            if unsafe i < n && (p + i == key.count || base.load(fromByteOffset: suffixStart + i, as: UInt8.self) > key[p + i]) {
                return nil
            }
            matched = p + i
        }
        return nil
    }

    package func get(_ key: [UInt8]) -> TermInfo? {
        unsafe key.withUnsafeBytes { unsafe get($0) }
    }

    /// A cursor on the very first term (on nothing if the field has none).
    package func cursorAtFirst() -> TermCursor {
        var cursor = TermCursor(dictionary: self)
        _ = cursor.seekToFirst()
        return cursor
    }

    /// A cursor on the first term ≥ `key` (on nothing if there is none).
    package func cursor(from key: [UInt8]) -> TermCursor {
        var cursor = TermCursor(dictionary: self)
        _ = unsafe key.withUnsafeBytes { unsafe cursor.seek($0) }
        return cursor
    }

    /// Walks the terms of a field in byte order, decoding one block at a time.
    package struct TermCursor {
        private let dictionary: FieldTermDictionary
        private var block = 0
        private var indexInBlock = 0
        private var offset = 0
        /// The current key is `keyBuffer[..<keyLength]`; the buffer only grows, so decoding a term copies its
        /// suffix and nothing else.
        private var keyBuffer: [UInt8] = []
        private var keyLength = 0
        /// False while the cursor rests on a term `skip(sharing:)` passed without building its key.
        private var keyIsBuilt = true
        package private(set) var info = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
        /// Leading bytes the current term shares with the term decoded before it (0 at the start of a block).
        package private(set) var sharedPrefixLength = 0
        /// False once the cursor has moved past the last term or met a damaged block.
        package private(set) var isValid = false

        fileprivate init(dictionary: FieldTermDictionary) {
            self.dictionary = dictionary
        }

        /// The current term's bytes.
        package var keyBytes: [UInt8] { Array(keyBuffer[..<keyLength]) }

        /// Calls `body` with the current term's bytes, without copying them.
        package func withKeyBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            unsafe keyBuffer.withUnsafeBytes { unsafe body(UnsafeRawBufferPointer(rebasing: $0[..<min(keyLength, $0.count)])) }
        }

        /// Compares the current term with `other`: negative, zero or positive.
        package func compareKey(to other: UnsafeRawBufferPointer) -> Int {
            unsafe withKeyBytes { unsafe compareBytes($0, other) }
        }

        /// Positions on the first term ≥ `target`; returns whether there is one.
        ///
        /// A target ahead of the cursor in its own block is reached from the cursor; otherwise a binary search over
        /// the block index picks the block. Inside the block, terms are passed without building their keys: the
        /// scan tracks how many leading bytes the previous term shares with `target` (as `get` does), and only the
        /// term it stops on is built, its shared prefix taken from `target` itself.
        package mutating func seek(_ target: UnsafeRawBufferPointer) -> Bool {
            guard dictionary.termCount > 0 else { return false }
            let inThisBlock = unsafe isValid && keyIsBuilt && compareKey(to: target) < 0
                && (block + 1 == dictionary.blockCount || compareBytes(dictionary.firstKey(block + 1), target) > 0)
            if !inThisBlock {
                let b = unsafe max(dictionary.block(containing: target), 0)
                start(block: b)
                guard unsafe isValid && compareKey(to: target) < 0 else { return isValid }
            }
            var matched = unsafe withKeyBytes { key in
                var i = 0
                while unsafe i < min(key.count, target.count) && key[i] == target[i] { i += 1 }
                return i
            }
            while advanceInBlock() {
                guard let term = decodeHeader() else {
                    isValid = false
                    return false
                }
                if term.prefix > matched { continue }
                var i = 0
                if term.prefix == matched {
                    while unsafe i < term.suffixLength && term.prefix + i < target.count
                        && dictionary.body.load(fromByteOffset: term.suffixStart + i, as: UInt8.self) == target[term.prefix + i]
                    {
                        i += 1
                    }
                    let pastTarget = unsafe i < term.suffixLength
                        && (term.prefix + i == target.count
                            || dictionary.body.load(fromByteOffset: term.suffixStart + i, as: UInt8.self) > target[term.prefix + i])
                    let equal = i == term.suffixLength && term.prefix + i == target.count
                    if !pastTarget && !equal {
                        matched = term.prefix + i
                        continue
                    }
                }
                // The first term ≥ target: its first `prefix` bytes are target's (they equal the previous term's,
                // which agreed with target that far).
                unsafe build(term, sharedFrom: target)
                return true
            }
            return isValid
        }

        /// Positions on the very first term.
        package mutating func seekToFirst() -> Bool {
            guard dictionary.termCount > 0 else { return false }
            start(block: 0)
            return isValid
        }

        private mutating func start(block b: Int) {
            block = b
            indexInBlock = 0
            offset = dictionary.blockStart(b)
            info = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
            keyLength = 0
            isValid = decodeTerm(skippingIfSharing: .max)
        }

        /// Moves to the next term; false at the end.
        package mutating func next() -> Bool {
            guard advanceInBlock() else { return isValid }
            isValid = decodeTerm(skippingIfSharing: .max)
            return isValid
        }

        /// Moves past every following term of the current block that shares at least `length` leading bytes with
        /// the current one, without building their keys (only the first `length` bytes stay valid meanwhile).
        /// Returns true on a term sharing fewer bytes (fully decoded), false at the end of the block or of the
        /// dictionary (the cursor is then not on a usable term; seek or stop).
        package mutating func skip(sharing length: Int) -> Bool {
            while isValid {
                guard indexInBlock + 1 < TermDictionaryFormat.blockSize,
                    block * TermDictionaryFormat.blockSize + indexInBlock + 1 < dictionary.termCount
                else { return false }
                indexInBlock += 1
                isValid = decodeTerm(skippingIfSharing: length)
                if sharedPrefixLength < length { return isValid }
            }
            return false
        }

        /// Steps to the next term's position: true when it is in the current block (decode it next); otherwise
        /// moves to the next block (or ends) itself and returns false.
        private mutating func advanceInBlock() -> Bool {
            guard isValid else { return false }
            indexInBlock += 1
            if block * TermDictionaryFormat.blockSize + indexInBlock >= dictionary.termCount {
                isValid = false
                return false
            }
            if indexInBlock == TermDictionaryFormat.blockSize {
                start(block: block + 1)
                return false
            }
            return true
        }

        /// A term's header, read by `decodeHeader`: how its key is built and where its suffix lies in the body.
        private struct TermHeader {
            var prefix: Int
            var suffixLength: Int
            var suffixStart: Int
        }

        /// Reads the term at `offset` and accumulates its info, leaving the key alone; nil if the block is damaged.
        private mutating func decodeHeader() -> TermHeader? {
            guard let base = unsafe dictionary.body.baseAddress else { return nil }
            let end = dictionary.indexOffset
            var at = offset
            guard let prefix = unsafe VInt.decode(base, at: &at, end: end), let suffix = unsafe VInt.decode(base, at: &at, end: end),
                prefix <= UInt64(keyLength), suffix <= UInt64(end - at)
            else { return nil }
            let header = TermHeader(prefix: Int(prefix), suffixLength: Int(suffix), suffixStart: at)
            at += header.suffixLength
            guard let docFreq = unsafe VInt.decode(base, at: &at, end: end), docFreq <= UInt64(UInt32.max),
                let postings = unsafe VInt.decode(base, at: &at, end: end), let positions = unsafe VInt.decode(base, at: &at, end: end)
            else { return nil }
            info.docFreq = UInt32(docFreq)
            info.postingsOffset &+= postings
            info.positionsOffset &+= positions
            offset = at
            // Not built yet; `keyLength` bounds the next term's prefix, which may reach into this one.
            keyLength = header.prefix + header.suffixLength
            sharedPrefixLength = header.prefix
            keyIsBuilt = false
            return header
        }

        /// Builds the key of the term just read: its suffix from the body, its prefix from `source` when given
        /// (otherwise the bytes already in the buffer).
        private mutating func build(_ term: TermHeader, sharedFrom source: UnsafeRawBufferPointer? = nil) {
            let length = term.prefix + term.suffixLength
            if keyBuffer.count < length { keyBuffer.append(contentsOf: repeatElement(0, count: length - keyBuffer.count)) }
            unsafe keyBuffer.withUnsafeMutableBytes { key in
                guard let destination = key.baseAddress, let base = unsafe dictionary.body.baseAddress else { return }
                if term.prefix > 0, let from = unsafe source?.baseAddress {
                    unsafe destination.copyMemory(from: from, byteCount: term.prefix)
                }
                unsafe (destination + term.prefix).copyMemory(from: base + term.suffixStart, byteCount: term.suffixLength)
            }
            keyIsBuilt = true
        }

        /// Decodes the term at `offset`. A term sharing at least `length` bytes with the previous one is not
        /// built (its key stays garbage past those bytes): the caller only wants to know it shares them.
        private mutating func decodeTerm(skippingIfSharing length: Int) -> Bool {
            guard let term = decodeHeader() else { return false }
            if term.prefix < length { unsafe build(term) }
            return true
        }
    }
}

/// Lexicographic byte comparison: negative, zero or positive.
@inline(__always)
package func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(a.count, b.count)
    if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
        let c = unsafe memcmp(pa, pb, n)
        if c != 0 { return Int(c) }
    }
    return a.count - b.count
}
