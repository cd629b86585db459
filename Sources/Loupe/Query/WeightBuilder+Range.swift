import LoupeCodec

/// Range and exists queries. Both are constant-score document sets, read from the term dictionary or from a
/// fast column, whichever reads less.
extension WeightBuilder {
    func rangeWeight(_ name: String, _ lower: RangeBound, _ upper: RangeBound) throws(IndexError) -> Weight {
        let (field, entry) = try resolve(name, fastWillDo: true)
        if entry.type == .text || entry.type == .string {
            let (low, high) = (try bytes(lower, entry), try bytes(upper, entry))
            return entry.indexed ? try termRange(field, entry, low, high) : ordinalRange(field, low, high)
        }
        guard let low = try mapped(lower, entry, isLower: true), let high = try mapped(upper, entry, isLower: false),
            low <= high
        else {
            return .empty
        }
        let lowKey = NumericMapping.termBytes(low)
        let highKey = NumericMapping.termBytes(high)
        var fromColumn: [Bool] = []
        for segment in searcher.segments {
            // Uniting postings costs about a document read per posting plus a seek per term; scanning the fast column
            // costs a value read per document. The dictionary's docFreq sums tell the first without visiting terms.
            guard entry.indexed else {
                fromColumn.append(true)
                continue
            }
            fromColumn.append(
                try segment.readingTerms { (terms) throws(FormatError) -> Bool in
                    guard entry.fast, let dictionary = terms.field(field) else { return false }
                    let (postings, maximumTerms) = try dictionary.docFreqSum(from: lowKey, through: highKey)
                    let reads = Int(clamping: postings) + min(maximumTerms, Int(clamping: postings)) * Self.termSeekCost
                    return reads > segment.maxDoc
                })
        }
        return .docSet(
            .range(field: field, hasFreqs: entry.record != .basic, lower: low, upper: high, fromColumn: fromColumn),
            score: boost(field))
    }

    /// What opening one more term's postings costs, in document reads (an estimate: a dictionary step and a
    /// cursor set-up, against a bit set per posting).
    static let termSeekCost = 64

    /// Documents holding a term of the range.
    private func termRange(
        _ field: Int, _ entry: FieldEntry, _ lower: (bytes: [UInt8], included: Bool)?,
        _ upper: (bytes: [UInt8], included: Bool)?
    ) throws(IndexError) -> Weight {
        var perSegment: [[TermInfo]] = []
        for segment in searcher.segments {
            var infos: [TermInfo] = []
            try segment.readingTerms { (terms) throws(FormatError) in
                unsafe try terms.field(field)?.forEachTerm(
                    from: lower?.bytes ?? [], includingLower: lower?.included ?? true, to: upper?.bytes,
                    includingUpper: upper?.included ?? true
                ) { _, info in
                    infos.append(info)
                    return true
                }
            }
            perSegment.append(infos)
        }
        return .docSet(.terms(field: field, hasFreqs: entry.record != .basic, infos: perSegment), score: boost(field))
    }

    /// Documents of a fast string field that is not indexed whose value lies in the range: per segment, the
    /// range's bounds become ordinals of the column's dictionary, and the column is scanned for them.
    private func ordinalRange(
        _ field: Int, _ lower: (bytes: [UInt8], included: Bool)?, _ upper: (bytes: [UInt8], included: Bool)?
    ) -> Weight {
        let bounds = searcher.segments.map { segment -> ClosedRange<UInt64>? in
            guard let dictionary = segment.fast.column(field)?.dictionary else { return nil }
            var low: UInt64 = 0
            if let lower {
                low = dictionary.lowerBound(lower.bytes)
                if !lower.included && dictionary.ordinal(of: lower.bytes) != nil { low += 1 }
            }
            var end = UInt64(dictionary.count)
            if let upper {
                end = dictionary.lowerBound(upper.bytes)
                if upper.included && dictionary.ordinal(of: upper.bytes) != nil { end += 1 }
            }
            return low < end ? low...(end - 1) : nil
        }
        return .docSet(.columnRange(field: field, ordinals: bounds), score: boost(field))
    }

    func existsWeight(_ name: String) throws(IndexError) -> Weight {
        let (field, entry) = try resolve(name, fastWillDo: true)
        if entry.fast && (entry.type.isNumeric || !entry.indexed) {
            return .docSet(.fastExists(field: field), score: boost(field))
        }
        if entry.type == .text { return .docSet(.normsExist(field: field), score: boost(field)) }
        return try termRange(field, entry, nil, nil)
    }

    /// A text or string bound as term bytes; a text bound goes through the field's analyzer when that leaves
    /// exactly one token (so `title:[a TO m]` compares with lowercased terms).
    private func bytes(_ bound: RangeBound, _ entry: FieldEntry) throws(IndexError) -> (bytes: [UInt8], included: Bool)?
    {
        let (value, included): (FieldValue, Bool)
        switch bound {
        case .unbounded: return nil
        case .included(let v): (value, included) = (v, true)
        case .excluded(let v): (value, included) = (v, false)
        }
        guard case .text(let text) = value else {
            throw IndexError(
                .invalidQuery, "field '\(entry.name)' is a \(entry.type.rawValue) field; its range bounds must be text",
                context: .init(field: entry.name))
        }
        if entry.type == .text {
            let tokens = try analyzer(entry).tokens(text)
            if tokens.count == 1 { return (tokens[0].bytes, included) }
        }
        return (Array(text.utf8), included)
    }

    /// A numeric or date bound as an inclusive mapped value; nil when the range is empty on that side
    /// (an excluded bound at the end of the domain).
    private func mapped(_ bound: RangeBound, _ entry: FieldEntry, isLower: Bool) throws(IndexError) -> UInt64? {
        switch bound {
        case .included(.i64(let v)) where entry.type == .u64 && v < 0,
            .excluded(.i64(let v)) where entry.type == .u64 && v < 0:
            return isLower ? 0 : nil
        case .unbounded:
            return isLower ? 0 : .max
        case .included(let value):
            return try mappedValue(value, entry)
        case .excluded(let value):
            let v = try mappedValue(value, entry)
            if isLower { return v == .max ? nil : v + 1 }
            return v == 0 ? nil : v - 1
        }
    }

    private func mappedValue(_ value: FieldValue, _ entry: FieldEntry) throws(IndexError) -> UInt64 {
        if case .mapped(let v) = try convert(value, entry) { return v }
        throw IndexError(
            .invalidQuery, "field '\(entry.name)' cannot take a range of \(value)", context: .init(field: entry.name))
    }
}
