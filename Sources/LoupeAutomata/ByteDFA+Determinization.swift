extension ByteDFA {
    /// Computes, caches and returns the transition of `state` on `byte` (the slow path of `step`).
    @usableFromInline @inline(never)
    func computeTransition(_ state: Int32, _ byte: UInt8) -> Int32 {
        let key = keys[Int(state)]
        let next = key[0] == 0 ? stepComplete(key, byte) : stepPartial(key, byte)
        // Interning may have moved the table, so index it only now.
        if key[0] == 0 && byte < 0x80 {
            for member in asciiAtoms[Int(asciiAtomOf[Int(byte)])] {
                unsafe table[Int(state) &<< 8 | Int(member)] = next
            }
        } else {
            unsafe table[Int(state) &<< 8 | Int(byte)] = next
        }
        return next
    }

    /// The atoms of the ASCII range: the runs between consecutive bounds of the NFA's class ranges.
    static func asciiAtoms(of nfa: ScalarNFA) -> (atomOf: [UInt8], atoms: [[UInt8]]) {
        var cut = [Bool](repeating: false, count: 129)
        cut[0] = true
        for range in nfa.classLows.indices {
            if nfa.classLows[range] < 0x80 { cut[Int(nfa.classLows[range])] = true }
            if nfa.classHighs[range] < 0x80 { cut[Int(nfa.classHighs[range]) + 1] = true }
        }
        var atomOf = [UInt8](repeating: 0, count: 0x80)
        var atoms: [[UInt8]] = []
        for byte in 0..<0x80 {
            if cut[byte] { atoms.append([]) }
            atomOf[byte] = UInt8(atoms.count - 1)
            atoms[atoms.count - 1].append(UInt8(byte))
        }
        return (atomOf, atoms)
    }

    /// From a complete state: an ASCII byte finishes a scalar; a lead byte opens a partial state over the
    /// scalars it can begin.
    private func stepComplete(_ key: [UInt32], _ byte: UInt8) -> Int32 {
        let states = key.dropFirst()
        switch byte {
        case 0x00...0x7F:
            var targets: [Int32] = []
            for state in states {
                for edge in nfa.edges(of: Int32(state)) {
                    let target = nfa.edgeTargets[edge]
                    if live[Int(target)], nfa.classContains(nfa.edgeClasses[edge], UInt32(byte)) {
                        targets.append(target)
                    }
                }
            }
            return complete(closureOf: targets)
        case 0xC2...0xDF:
            let base = UInt32(byte & 0x1F) << 6
            return partial(states, base: base, valid: base...(base + 0x3F), remaining: 1)
        case 0xE0...0xEF:
            let base = UInt32(byte & 0x0F) << 12
            // E0 would otherwise admit overlong forms, ED the surrogates.
            let valid = max(base, 0x800)...(byte == 0xED ? 0xD7FF : base + 0xFFF)
            return partial(states, base: base, valid: valid, remaining: 2)
        case 0xF0...0xF4:
            let base = UInt32(byte & 0x07) << 18
            let valid = max(base, 0x10000)...min(base + 0x3FFFF, ScalarSet.maximum)
            return partial(states, base: base, valid: valid, remaining: 3)
        default:
            return Self.dead
        }
    }

    /// The partial state after a lead byte: for each live edge of `states`, the part of its class inside
    /// `valid`, relative to `base`.
    private func partial(
        _ states: ArraySlice<UInt32>,
        base: UInt32,
        valid: ClosedRange<UInt32>,
        remaining: UInt32
    ) -> Int32 {
        var pieces: [(low: UInt32, high: UInt32, target: UInt32)] = []
        for state in states {
            for edge in nfa.edges(of: Int32(state)) {
                let target = nfa.edgeTargets[edge]
                guard live[Int(target)] else { continue }
                let label = nfa.edgeClasses[edge]
                var range = nfa.firstRange(ofClass: label, endingAtOrAfter: valid.lowerBound)
                let end = nfa.ranges(ofClass: label).upperBound
                while range < end, nfa.classLows[range] <= valid.upperBound {
                    let low = max(nfa.classLows[range], valid.lowerBound) - base
                    let high = min(nfa.classHighs[range], valid.upperBound) - base
                    pieces.append((low, high, UInt32(target)))
                    range += 1
                }
            }
        }
        return partial(pieces, remaining: remaining)
    }

    /// Inside a multi-byte scalar: a continuation byte narrows the window; the last one finishes the
    /// scalar.
    private func stepPartial(_ key: [UInt32], _ byte: UInt8) -> Int32 {
        guard byte & 0xC0 == 0x80 else { return Self.dead }
        let remaining = key[0]
        let shift = 6 * (remaining - 1)
        let low = UInt32(byte & 0x3F) << shift
        let high = low + (1 << shift) - 1
        var targets: [Int32] = []
        var pieces: [(low: UInt32, high: UInt32, target: UInt32)] = []
        var index = 1
        while index + 2 < key.count {
            let pieceLow = max(key[index], low)
            let pieceHigh = min(key[index + 1], high)
            if pieceLow <= pieceHigh {
                if remaining == 1 {
                    targets.append(Int32(key[index + 2]))
                } else {
                    pieces.append((pieceLow - low, pieceHigh - low, key[index + 2]))
                }
            }
            index += 3
        }
        return remaining == 1 ? complete(closureOf: targets) : partial(pieces, remaining: remaining - 1)
    }

    /// The partial state with these pieces, canonicalized (sorted by target, overlapping or adjacent
    /// ranges of one target merged) so that equivalent states share one key.
    private func partial(_ pieces: [(low: UInt32, high: UInt32, target: UInt32)], remaining: UInt32) -> Int32 {
        guard !pieces.isEmpty else { return Self.dead }
        let sorted = pieces.sorted { ($0.target, $0.low) < ($1.target, $1.low) }
        var key: [UInt32] = [remaining]
        key.reserveCapacity(1 + 3 * sorted.count)
        for piece in sorted {
            let last = key.count - 3
            if key.count > 1, key[last + 2] == piece.target, piece.low <= key[last + 1] &+ 1 {
                key[last + 1] = max(key[last + 1], piece.high)
            } else {
                key += [piece.low, piece.high, piece.target]
            }
        }
        return intern(key)
    }

    /// The complete state holding the live epsilon closure of `targets` (`dead` if it is empty).
    func complete(closureOf targets: [Int32]) -> Int32 {
        let states = closure(of: targets)
        guard !states.isEmpty else { return Self.dead }
        var key: [UInt32] = [0]
        key.reserveCapacity(states.count + 1)
        for state in states { key.append(UInt32(state)) }
        return intern(key)
    }

    /// The sorted live NFA states reachable from `targets` by epsilon moves.
    func closure(of targets: [Int32]) -> [Int32] {
        if generation == .max {
            for index in marks.indices { marks[index] = 0 }
            generation = 0
        }
        generation += 1
        var result: [Int32] = []
        var stack: [Int32] = []
        for target in targets where live[Int(target)] && marks[Int(target)] != generation {
            marks[Int(target)] = generation
            stack.append(target)
        }
        while let state = stack.popLast() {
            result.append(state)
            for move in nfa.epsilons(of: state) {
                let target = nfa.epsilonTargets[move]
                if live[Int(target)], marks[Int(target)] != generation {
                    marks[Int(target)] = generation
                    stack.append(target)
                }
            }
        }
        return result.sorted()
    }

    /// The state with `key`, created (with a fresh row of uncomputed transitions) if new.
    private func intern(_ key: [UInt32]) -> Int32 {
        if let state = stateOfKey[key] { return state }
        guard unsafe stateCount <= stateLimit else {
            exceededStateLimit = true
            return Self.dead
        }
        let state = unsafe Int32(stateCount)
        if Int(state) == capacity { grow() }
        unsafe (table + (Int(state) << 8)).initialize(repeating: -1, count: 256)
        keys.append(key)
        stateOfKey[key] = state
        if key[0] == 0 {
            var tag = ScalarNFA.notAccepting
            var everything = false
            for nfaState in key.dropFirst() {
                tag = min(tag, nfa.acceptTags[Int(nfaState)])
                everything = everything || absorbing[Int(nfaState)]
            }
            unsafe acceptTags.append(tag)
            unsafe acceptsEverythingFlags.append(everything)
        } else {
            unsafe acceptTags.append(ScalarNFA.notAccepting)
            unsafe acceptsEverythingFlags.append(false)
        }
        unsafe knownDeadBytes.append(contentsOf: repeatElement(0, count: 4))
        unsafe stateCount += 1
        return state
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newTable = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity << 8)
        unsafe newTable.initialize(from: table, count: Int(capacity) << 8)
        unsafe table.deallocate()
        unsafe table = newTable
        capacity = newCapacity
    }

    /// NFA states from which some path (over non-empty classes) reaches an accepting state.
    static func liveStates(of nfa: ScalarNFA) -> [Bool] {
        let count = nfa.stateCount
        // Reverse adjacency, as a counting sort of (target, source) pairs.
        var predecessors: [(target: Int32, source: Int32)] = []
        for state in 0..<Int32(count) {
            for edge in nfa.edges(of: state) where !nfa.ranges(ofClass: nfa.edgeClasses[edge]).isEmpty {
                predecessors.append((nfa.edgeTargets[edge], state))
            }
            for move in nfa.epsilons(of: state) {
                predecessors.append((nfa.epsilonTargets[move], state))
            }
        }
        var start = [Int](repeating: 0, count: count + 1)
        for pair in predecessors { start[Int(pair.target) + 1] += 1 }
        for state in 0..<count { start[state + 1] += start[state] }
        var next = start
        var sources = [Int32](repeating: 0, count: predecessors.count)
        for pair in predecessors {
            sources[next[Int(pair.target)]] = pair.source
            next[Int(pair.target)] += 1
        }
        var live = [Bool](repeating: false, count: count)
        var stack: [Int32] = []
        for state in 0..<count where nfa.acceptTags[state] != ScalarNFA.notAccepting {
            live[state] = true
            stack.append(Int32(state))
        }
        while let state = stack.popLast() {
            for index in start[Int(state)]..<start[Int(state) + 1] where !live[Int(sources[index])] {
                live[Int(sources[index])] = true
                stack.append(sources[index])
            }
        }
        return live
    }

    /// NFA states that accept (after epsilon moves) and loop to themselves on every scalar: once one is
    /// in a complete state, every continuation is accepted.
    func findAbsorbingStates() -> [Bool] {
        var result = [Bool](repeating: false, count: nfa.stateCount)
        for state in 0..<Int32(nfa.stateCount) where live[Int(state)] {
            var loops: [ClosedRange<UInt32>] = []
            for edge in nfa.edges(of: state) where nfa.edgeTargets[edge] == state {
                for range in nfa.ranges(ofClass: nfa.edgeClasses[edge]) {
                    loops.append(nfa.classLows[range]...nfa.classHighs[range])
                }
            }
            guard !loops.isEmpty, ScalarSet(ranges: loops).intersection(.all) == .all else { continue }
            result[Int(state)] = closure(of: [state]).contains { nfa.acceptTags[Int($0)] != ScalarNFA.notAccepting }
        }
        return result
    }
}
