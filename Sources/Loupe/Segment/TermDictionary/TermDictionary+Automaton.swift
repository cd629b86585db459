import LoupeAutomata

extension FieldTermDictionary {
    /// Calls `visit` with every term `dfa` accepts, in byte order, with its info and accept tag.
    ///
    /// Never reads every term: the walk keeps the automaton state after each byte of the current term and reuses
    /// the states of the prefix the next term shares with it, so a term costs only its new bytes. When a prefix
    /// leads to the dead state, the rest of its block is skipped without building keys, and past the block the
    /// cursor seeks straight beyond the prefix (binary search over the block index).
    package func forEachMatch(of dfa: ByteDFA, _ visit: (UnsafeRawBufferPointer, TermInfo, UInt8) -> Void) {
        var cursor = cursorAtFirst()
        // states[i] is the state after path[..<i]; only the first `depth` bytes of `path` are current.
        var states: [Int32] = [dfa.start]
        var path: [UInt8] = []
        var depth = 0
        var afterSeek = true
        while cursor.isValid {
            let info = cursor.info
            let sharedWithPrevious = cursor.sharedPrefixLength
            let deadDepth: Int? = unsafe cursor.withKeyBytes { key in
                var i = afterSeek ? unsafe commonPrefix(path, depth, key) : min(sharedWithPrevious, depth)
                var state = states[i]
                while i < key.count {
                    let byte = unsafe key[i]
                    state = dfa.step(state, byte)
                    if i == path.count {
                        path.append(byte)
                        states.append(state)
                    } else {
                        path[i] = byte
                        states[i + 1] = state
                    }
                    i += 1
                    if state == ByteDFA.dead {
                        depth = i
                        return i
                    }
                }
                depth = i
                if let tag = dfa.acceptTag(state) { unsafe visit(key, info, tag) }
                return nil
            }
            guard let deadDepth else {
                afterSeek = false
                _ = cursor.next()
                continue
            }
            if cursor.skip(sharing: deadDepth) {
                afterSeek = false
                continue
            }
            let target = Self.successor(of: path[..<deadDepth])
            guard !target.isEmpty, unsafe target.withUnsafeBytes({ unsafe cursor.seek($0) }) else { return }
            afterSeek = true
        }
    }

    /// The smallest key greater than every key starting with `prefix`; empty when there is none.
    private static func successor(of prefix: ArraySlice<UInt8>) -> [UInt8] {
        var key = Array(prefix)
        while let last = key.last, last == 0xFF { key.removeLast() }
        if !key.isEmpty { key[key.count - 1] += 1 }
        return key
    }

    /// Calls `visit` with every term in `lower...upper` (or `lower..<upper`), in byte order.
    package func forEachTerm(
        from lower: [UInt8], includingLower: Bool, to upper: [UInt8]?, includingUpper: Bool,
        _ visit: (UnsafeRawBufferPointer, TermInfo) -> Bool
    ) {
        var cursor = cursor(from: lower)
        while cursor.isValid {
            let keepGoing = unsafe cursor.withKeyBytes { key in
                if !includingLower {
                    let c = unsafe lower.withUnsafeBytes { unsafe compareBytes(key, $0) }
                    if c == 0 { return true }
                }
                if let upper {
                    let c = unsafe upper.withUnsafeBytes { unsafe compareBytes(key, $0) }
                    if c > 0 || (c == 0 && !includingUpper) { return false }
                }
                return unsafe visit(key, cursor.info)
            }
            guard keepGoing else { return }
            _ = cursor.next()
        }
    }
}

/// Leading bytes `a[..<length]` shares with `b`.
private func commonPrefix(_ a: [UInt8], _ length: Int, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(length, b.count)
    var i = 0
    while unsafe i < n && a[i] == b[i] { i += 1 }
    return i
}
