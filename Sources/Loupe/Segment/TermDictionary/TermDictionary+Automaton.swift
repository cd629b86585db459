import LoupeAutomata

extension FieldTermDictionary {
    /// Calls `visit` with every term `dfa` accepts, in byte order, with its info and accept tag.
    ///
    /// Never reads every term: the walk keeps the automaton state after each byte of the current term and reuses
    /// the states of the prefix the next term shares with it, so a term costs only its new bytes. When a prefix
    /// leads to the dead state, the rest of the block under that prefix is skipped without building keys, and past
    /// the block the cursor seeks straight to the next byte string the automaton still accepts a continuation of
    /// (as an FST intersection follows only live transitions), skipping every term in between.
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
            // Terms right after a dead one usually share its dead prefix: skipping them inside the block costs
            // less than a seek. Past the block, seek to the next key the automaton can still accept.
            if cursor.skip(sharing: deadDepth) {
                afterSeek = false
                continue
            }
            guard let target = Self.nextLiveKey(after: path, deadDepth: deadDepth, states: states, dfa),
                unsafe target.withUnsafeBytes({ unsafe cursor.seek($0) })
            else { return }
            afterSeek = true
        }
    }

    /// The smallest key after `path[..<deadDepth]` (whose last byte killed the automaton) that the automaton has
    /// not rejected yet: the next byte that keeps the state alive at the deepest level that has one. Nil when no
    /// key after it can be accepted.
    private static func nextLiveKey(after path: [UInt8], deadDepth: Int, states: [Int32], _ dfa: ByteDFA) -> [UInt8]? {
        var level = deadDepth - 1
        while level >= 0 {
            var byte = Int(path[level]) + 1
            while byte <= 0xFF {
                if dfa.step(states[level], UInt8(byte)) != ByteDFA.dead { return Array(path[..<level]) + [UInt8(byte)] }
                byte += 1
            }
            level -= 1
        }
        return nil
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
