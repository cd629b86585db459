import LoupeCodec

extension TermBlockLayout {
    /// The info of `key`, or nil when the field has no such term.
    ///
    /// Scans the block without building keys: it tracks how many leading bytes the previous term shares with
    /// `key`. Keys are sorted, so a term whose shared prefix with its predecessor is longer than that match still
    /// sorts before `key`, and one whose prefix is shorter sorts after it (the scan stops).
    /// - Complexity: O(log(blocks)) first-key comparisons plus one block's header bytes.
    func lookup(_ key: UnsafeRawBufferPointer) throws(FormatError) -> TermInfo? {
        guard blockCount > 0 else { return nil }
        let b = unsafe block(containing: key)
        guard unsafe compareBytes(firstKey(b), key) <= 0 else { return nil }
        var decoder = try open(b)
        var matched = 0
        guard unsafe try decoder.advance(to: key, matched: &matched) else { return nil }
        let p = decoder.prefixLength
        let suffix = unsafe decoder.suffix
        guard p + suffix.count == key.count,
            unsafe sharedPrefix(suffix, UnsafeRawBufferPointer(rebasing: key[p...])) == suffix.count
        else { return nil }
        return try decoder.info()
    }
}

/// Walks a field's terms in byte order from any key, one block at a time; the layout-generic core of
/// `FieldTermDictionary.TermCursor`.
struct BlockCursor<Layout: TermBlockLayout> {
    let layout: Layout
    private var block = 0
    private var decoder = Layout.Block()
    /// The current key is `key[..<keyLength]`; the buffer only grows, so decoding a term copies its suffix only.
    private var key: [UInt8] = []
    private var keyLength = 0
    private(set) var isValid = false
    /// The current term's info.
    private(set) var info = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)

    init(_ layout: Layout) {
        self.layout = layout
    }

    var keyBytes: [UInt8] { Array(key[..<keyLength]) }

    func withKeyBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        unsafe key.withUnsafeBytes { unsafe body(UnsafeRawBufferPointer(rebasing: $0[..<keyLength])) }
    }

    mutating func seekToFirst() throws(FormatError) -> Bool {
        guard layout.blockCount > 0 else { return false }
        try start(block: 0)
        return try step()
    }

    /// Moves to the next term; false at the end.
    mutating func next() throws(FormatError) -> Bool {
        guard isValid else { return false }
        return try step()
    }

    /// Positions on the first term ≥ `target`; returns whether there is one.
    ///
    /// A target ahead of the cursor in its own block is reached from the cursor; otherwise the block index picks
    /// the block. Terms are passed without building their keys (tracking, as `lookup` does, how many leading bytes
    /// the previous term shares with `target`); only the term the scan stops on is built, its prefix taken from
    /// `target`.
    mutating func seek(_ target: UnsafeRawBufferPointer) throws(FormatError) -> Bool {
        guard layout.blockCount > 0 else { return false }
        var matched = 0
        let ahead =
            unsafe isValid && withKeyBytes { unsafe compareBytes($0, target) } < 0
            && (block + 1 == layout.blockCount || compareBytes(layout.firstKey(block + 1), target) > 0)
        if ahead {
            matched = unsafe withKeyBytes { unsafe sharedPrefix($0, target) }
        } else {
            try start(block: unsafe layout.block(containing: target))
        }
        do {
            if unsafe try decoder.advance(to: target, matched: &matched) {
                // Its first `prefixLength` bytes are target's (they equal the previous term's, which agreed with
                // target that far).
                unsafe try build(prefix: decoder.prefixLength, from: target, suffix: decoder.suffix)
                isValid = true
                return true
            }
        } catch {
            isValid = false
            throw error
        }
        // Every term of the block sorts before target; the next block's first term is the answer.
        guard block + 1 < layout.blockCount else {
            isValid = false
            return false
        }
        try start(block: block + 1)
        return try step()
    }

    private mutating func start(block b: Int) throws(FormatError) {
        block = b
        keyLength = 0
        isValid = false
        decoder = try layout.open(b)
    }

    /// Decodes the next term, from the next block when this one is done.
    private mutating func step() throws(FormatError) -> Bool {
        do {
            while true {
                if decoder.next() {
                    unsafe try build(prefix: decoder.prefixLength, from: nil, suffix: decoder.suffix)
                    isValid = true
                    return true
                }
                try decoder.checkDamage()
                guard block + 1 < layout.blockCount else {
                    isValid = false
                    return false
                }
                try start(block: block + 1)
            }
        } catch {
            isValid = false
            throw error
        }
    }

    /// Makes the key `prefix` bytes (from `source`, or the current key when nil) followed by `suffix`.
    private mutating func build(
        prefix: Int, from source: UnsafeRawBufferPointer?, suffix: UnsafeRawBufferPointer
    )
        throws(FormatError)
    {
        let length = prefix + suffix.count
        if key.count < length { key.append(contentsOf: repeatElement(0, count: length - key.count)) }
        unsafe key.withUnsafeMutableBytes { buffer in
            guard let destination = buffer.baseAddress else { return }
            if prefix > 0, let from = unsafe source?.baseAddress {
                unsafe destination.copyMemory(from: from, byteCount: prefix)
            }
            if let from = suffix.baseAddress {
                unsafe (destination + prefix).copyMemory(from: from, byteCount: suffix.count)
            }
        }
        keyLength = length
        info = try decoder.info()
    }
}
