extension Column {
    /// Kind, layout and codec, as `idx inspect` shows them: `bytes multi blockwise-linear (12 values)`.
    package var layoutDescription: String {
        let layoutName: String
        switch layout {
        case .full: layoutName = "full"
        case .optional: layoutName = "optional"
        case .multi: layoutName = "multi"
        }
        let codecName: String
        switch values.codec {
        case .bitpacked: codecName = "bitpacked"
        case .linear: codecName = "linear"
        case .blockwiseLinear: codecName = "blockwise-linear"
        }
        let dictionaryNote = dictionary.map { ", \($0.count) distinct" } ?? ""
        return "\(kind) \(layoutName) \(codecName) (\(values.count) values\(dictionaryNote))"
    }

    /// What a full read finds wrong with the column beyond what opening it checks: offsets of a multi-valued column
    /// that fall or do not end at the value count, a dictionary out of order. Empty when the column is sound.
    package func problems(maxDoc: Int) -> [String] {
        var found: [String] = []
        if case .multi(let offsets) = layout {
            var previous: UInt64 = 0
            for d in 0...maxDoc {
                let offset = offsets[d]
                if offset < previous || (d == 0 && offset != 0) {
                    found.append("offset of document \(d) is \(offset), after \(previous)")
                    break
                }
                previous = offset
            }
            if previous != UInt64(values.count) {
                found.append("offsets end at \(previous), the column holds \(values.count) values")
            }
        }
        if let dictionary {
            for ordinal in 1..<max(1, dictionary.count) {
                let ordered = unsafe dictionary.withTerm(UInt64(ordinal - 1)) { a in
                    unsafe dictionary.withTerm(UInt64(ordinal)) { b in unsafe compareBytes(a, b) < 0 }
                }
                if !ordered {
                    found.append("dictionary value \(ordinal) is not greater than the one before it")
                    break
                }
            }
        }
        return found
    }
}
