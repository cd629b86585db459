/// `terms` over one segment: a document count per (parent slot, key), the key a string field's term ordinal or
/// a numeric field's mapped value. A document counts once per distinct value, as in tantivy.
///
/// At harvest each parent's buckets are ordered and cut to the segment size, as tantivy's segment collector
/// does: what is cut adds to `sum_other_doc_count`, and the count of the first bucket cut off to
/// `doc_count_error_upper_bound`. Ties are broken by key ascending (term order), where tantivy's are arbitrary.
/// Only then are ordinals turned into term bytes, so bytes are read once per kept bucket, never per document.
///
/// `missing` counts documents without a value under a key of its own: for a string field a sentinel ordinal
/// past the dictionary (so it competes in the segment's cut like any term), for a number on a numeric field
/// that value itself, and for a string on a numeric field a separate bucket outside the cut, whose
/// sub-aggregations run in a tree of their own (`missingChildren`, indexed by parent slot) — all as tantivy
/// does.
final class TermsAggregator: SegmentAggregator {
    // One core, by slot table; the others nil. Optional chaining mutates the core in place.
    private var dense: TermsCore<DenseSlots>?
    private var window: TermsCore<WindowSlots>?
    private var hashed: TermsCore<HashedSlots>?

    init(dense core: TermsCore<DenseSlots>) { dense = core }
    init(window core: TermsCore<WindowSlots>) { window = core }
    init(hashed core: TermsCore<HashedSlots>) { hashed = core }

    /// Where `missing` goes: the key it takes in the column's space, or outside it (a string on a numeric field,
    /// a date between microseconds).
    static func placeMissing(
        _ missing: MissingKey?, type: FieldType, dictionary: ColumnDictionary?
    )
        -> (key: UInt64?, foreign: Bool)
    {
        guard let missing else { return (nil, false) }
        if !type.isNumeric { return (UInt64(dictionary?.count ?? 0), false) }
        guard let number = missing.number else { return (nil, true) }
        switch type {
        case .u64, .bool: return (RustCast.u64(number), false)
        case .i64: return (NumericMapping.fromI64(RustCast.i64(number)), false)
        case .f64: return (NumericMapping.fromF64(number), false)
        case .date:
            let nanos = RustCast.i64(number)
            return nanos % 1000 == 0 ? (NumericMapping.fromI64(nanos / 1000), false) : (nil, true)
        case .text, .string: return (nil, true)
        }
    }

    func reserve(parents count: Int) {
        dense?.reserve(count)
        window?.reserve(count)
        hashed?.reserve(count)
    }

    func collect(_ block: DocBlock) {
        dense?.collect(block)
        window?.collect(block)
        hashed?.collect(block)
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        dense?.harvest(parent) ?? window?.harvest(parent) ?? hashed?.harvest(parent) ?? .terms(TermsPartial())
    }

    var memoryBytes: Int { dense?.memoryBytes ?? window?.memoryBytes ?? hashed?.memoryBytes ?? 0 }
}

/// A terms aggregation's state, over one kind of slot table.
struct TermsCore<Slots: BucketSlotTable> {
    private let plan: PlannedAggregation
    private let request: TermsAggregation
    private let column: Column?
    private let dictionary: ColumnDictionary?
    private let budget: AggregationBudget
    private var slots: Slots
    private var counts = SlotCounts()
    private var children: SubAggregators
    /// The key documents without a value count under, when it lives in the column's key space.
    private let missingKey: UInt64?
    /// Per parent slot, documents without a value, when `missing` lies outside the column's key space.
    private var foreignMissing: [UInt32]?
    private var missingChildren: SubAggregators
    /// Per key (ordinal), whether include/exclude keep it.
    private let allowed: [Bool]?
    /// Keys a table of fixed slots has (the ordinals, and one for documents without a value); a damaged column's
    /// larger value would count in another parent's bucket.
    private let keyLimit: UInt64
    private var parents = 0
    private var grouped: [[(key: UInt64, slot: UInt32)]]?
    private var scratch: [UInt64] = []
    private var block = BlockValues()
    private var charged = 0

    init(
        _ plan: PlannedAggregation, _ request: TermsAggregation, filters: TermFilters, column: Column?, slots: Slots,
        children: SubAggregators, missingChildren: SubAggregators, budget: AggregationBudget
    ) {
        self.plan = plan
        self.request = request
        self.column = column
        dictionary = column?.dictionary
        self.slots = slots
        self.children = children
        self.missingChildren = missingChildren
        self.budget = budget
        let placement = TermsAggregator.placeMissing(request.missing, type: plan.fieldType, dictionary: dictionary)
        missingKey = placement.key
        foreignMissing = placement.foreign ? [] : nil
        allowed = filters.allowedOrdinals(dictionary)
        keyLimit = Slots.makesSlots ? .max : UInt64(dictionary?.count ?? 0) + 1
    }

    mutating func reserve(_ count: Int) {
        guard count > parents else { return }
        slots.reserve(parents: count)
        let needed = slots.slotCount
        if needed > counts.count {
            guard budget.admits((needed - counts.count) * 4) else { return }
            counts.ensure(needed)
        }
        if foreignMissing != nil { foreignMissing! += Array(repeating: 0, count: count - parents) }
        parents = count
    }

    mutating func collect(_ block: DocBlock) {
        if block.isTopLevel { reserve(1) }
        guard !budget.isExceeded else { return }
        // Each value of the block makes at most one new slot, and queues at most one pair.
        var tally = counts
        counts = SlotCounts()
        var queue = children.pending
        children.pending = DocBlock()
        let room = Slots.makesSlots || !children.isEmpty ? valueBound(block.docs) : 0
        let slotCount = Slots.makesSlots ? slots.slotCount + room : 0
        withBucketSink(&tally, slots: slotCount, &queue, queueing: !children.isEmpty, room: room) { sink in
            if block.isTopLevel {
                run(block.docs, TopLevelParents(), &sink)
            } else {
                run(block.docs, NestedParents(slots: block.parents), &sink)
            }
        }
        counts = tally
        children.pending = queue
        children.flush(slotCount: max(slots.slotCount, counts.count))
        missingChildren.flush(slotCount: parents)
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    /// The most keys `docs` can count: one per value, or one for a document without.
    private func valueBound(_ docs: [DocID]) -> Int {
        guard let column, !column.isSingleValued else { return docs.count }
        return docs.reduce(0) { $0 + Swift.max(column.valueRange($1).count, 1) }
    }

    private mutating func run<P: ParentSlots>(
        _ docs: [DocID], _ parents: P, _ sink: inout BucketSink
    ) {
        guard let column else {
            for i in docs.indices { addMissing(docs[i], parents.parent(i), &sink) }
            return
        }
        if column.isSingleValued {
            block.read(docs, from: column)
            for i in docs.indices {
                let value = block.values[i]
                if BlockValues.hasNoValue(value, docs[i], column) {
                    addMissing(docs[i], parents.parent(i), &sink)
                } else {
                    add(docs[i], parents.parent(i), value, &sink)
                }
            }
            return
        }
        for i in docs.indices {
            let doc = docs[i]
            let values = column.valueRange(doc)
            switch values.count {
            case 0: addMissing(doc, parents.parent(i), &sink)
            case 1: add(doc, parents.parent(i), column.value(at: values.lowerBound), &sink)
            default: addDistinct(doc, parents.parent(i), values, column, &sink)
            }
        }
    }

    /// Counts a document without a value under `missing`, if the request has one.
    private mutating func addMissing(_ doc: DocID, _ parent: UInt32, _ sink: inout BucketSink) {
        if let missingKey {
            add(doc, parent, missingKey, &sink)
        } else if foreignMissing != nil {
            foreignMissing![Int(parent)] &+= 1
            if !missingChildren.isEmpty { missingChildren.pending.append(doc, parent) }
        }
    }

    /// Counts each distinct value of a multi-valued document once.
    private mutating func addDistinct(
        _ doc: DocID, _ parent: UInt32, _ values: Range<Int>, _ column: Column, _ sink: inout BucketSink
    ) {
        scratch.removeAll(keepingCapacity: true)
        for j in values { scratch.append(column.value(at: j)) }
        scratch.sort()
        var previous: UInt64?
        for value in scratch where value != previous {
            add(doc, parent, value, &sink)
            previous = value
        }
    }

    @inline(__always) private mutating func add(
        _ doc: DocID, _ parent: UInt32, _ key: UInt64, _ sink: inout BucketSink
    ) {
        if let allowed, !(key < UInt64(allowed.count) && allowed[Int(key)]) { return }
        guard key < keyLimit else { return }
        sink.add(doc, slots.slot(parent: parent, key: key))
    }

    mutating func harvest(_ parent: UInt32) -> IntermediateResult {
        if grouped == nil { grouped = slots.slotsByParent(max(parents, 1)) }
        var entries: [(key: UInt64, count: Int, slot: UInt32)] = []
        if let grouped, Int(parent) < grouped.count {
            for (key, slot) in grouped[Int(parent)] where counts[slot] > 0 {
                entries.append((key, counts[slot], slot))
            }
        }
        sort(&entries)
        var partial = TermsPartial()
        let cut = request.effectiveSegmentSize
        partial.entries.reserveCapacity(Swift.min(entries.count, cut) + 1)
        if entries.count > cut {
            partial.docCountErrorUpperBound = entries[cut].count
            partial.sumOtherDocCount = entries[cut...].reduce(0) { $0 + $1.count }
            entries.removeSubrange(cut...)
        }
        for entry in entries {
            partial.add(bucketKey(entry.key), TermsEntry(docCount: entry.count, sub: children.harvest(entry.slot)))
        }
        if request.minDocCount == 0, let dictionary, !plan.fieldType.isNumeric {
            let empty = IntermediateAggregations.empty(plan.children)
            for ordinal in 0..<dictionary.count {
                if partial.entries.count >= cut { break }
                if let allowed, !allowed[ordinal] { continue }
                let key = BucketKey.string(dictionary.term(UInt64(ordinal)))
                if partial.entries[key] == nil { partial.entries[key] = TermsEntry(docCount: 0, sub: empty) }
            }
        }
        if let foreignMissing, let missing = request.missing {
            let count = Int(parent) < foreignMissing.count ? Int(foreignMissing[Int(parent)]) : 0
            partial.add(missing.key, TermsEntry(docCount: count, sub: missingChildren.harvest(parent)))
        }
        return .terms(partial)
    }

    /// Orders a segment's buckets for its cut: by the request's order, ties by key ascending.
    private func sort(_ entries: inout [(key: UInt64, count: Int, slot: UInt32)]) {
        let descending = request.order.descending
        switch request.order.target {
        case .count:
            entries.sort { a, b in
                a.count != b.count ? (a.count > b.count) == descending : a.key < b.key
            }
        case .key:
            entries.sort { a, b in descending ? a.key > b.key : a.key < b.key }
        case .metric(let name, let property):
            guard let index = plan.children.firstIndex(where: { $0.name == name }) else { return }
            let metric = children.aggregators[index]
            var keyed = entries.map { (value: metric.metricValue($0.slot, property: property) ?? 0, entry: $0) }
            keyed.sort { a, b in
                a.value != b.value ? (a.value > b.value) == descending : a.entry.key < b.entry.key
            }
            entries = keyed.map(\.entry)
        }
    }

    /// A segment key as the bucket key tantivy gives it.
    private func bucketKey(_ key: UInt64) -> BucketKey {
        switch plan.fieldType {
        case .text, .string:
            guard let dictionary, key < UInt64(dictionary.count) else { return request.missing?.key ?? .string([]) }
            return .string(dictionary.term(key))
        case .u64: return .u64(key)
        case .i64: return .i64(NumericMapping.toI64(key))
        case .f64: return .normalized(NumericMapping.toF64(key))
        case .bool: return .bool(key != 0)
        case .date: return .string(Array(AggregationText.rfc3339(nanoseconds: DateDecoder.nanoseconds(key)).utf8))
        }
    }

    var memoryBytes: Int {
        counts.memoryBytes + slots.memoryBytes + children.memoryBytes + missingChildren.memoryBytes
            + (foreignMissing?.capacity ?? 0) * 4
    }
}

extension SegmentAggregatorBuilder {
    /// Strings (term ordinals, known bounds) get dense slots at the top level and under parents when their
    /// dictionary is small; numbers at the top level a window; the rest a hash map.
    func makeTerms(
        _ plan: PlannedAggregation, _ request: TermsAggregation, _ include: CompiledTermFilter?,
        _ exclude: CompiledTermFilter?, _ column: Column?, _ children: SubAggregators
    ) -> any SegmentAggregator {
        let filters = TermFilters(include: include, exclude: exclude)
        let foreign = TermsAggregator.placeMissing(
            request.missing, type: plan.fieldType, dictionary: column?.dictionary
        ).foreign
        let missingChildren = SubAggregators(foreign ? make(plan.children) : [])
        if !plan.fieldType.isNumeric {
            let keyCount = (column?.dictionary?.count ?? 0) + 1
            if plan.depth == 0 || keyCount <= 256 {
                return TermsAggregator(
                    dense: TermsCore(
                        plan, request, filters: filters, column: column, slots: DenseSlots(keyCount: keyCount),
                        children: children, missingChildren: missingChildren, budget: budget))
            }
        } else if plan.depth == 0 {
            return TermsAggregator(
                window: TermsCore(
                    plan, request, filters: filters, column: column, slots: WindowSlots(), children: children,
                    missingChildren: missingChildren, budget: budget))
        }
        return TermsAggregator(
            hashed: TermsCore(
                plan, request, filters: filters, column: column, slots: HashedSlots(), children: children,
                missingChildren: missingChildren, budget: budget))
    }
}

/// A terms aggregation's include and exclude.
struct TermFilters {
    let include: CompiledTermFilter?
    let exclude: CompiledTermFilter?

    /// The ordinals of a segment's dictionary (and the missing sentinel after them) the filters keep; nil when
    /// they keep all. `include` never keeps the sentinel and `exclude` never drops it, as in tantivy.
    func allowedOrdinals(_ dictionary: ColumnDictionary?) -> [Bool]? {
        guard include != nil || exclude != nil else { return nil }
        let count = dictionary?.count ?? 0
        var allowed = Array(repeating: include == nil, count: count + 1)
        if let matches = include?.matcher(), let dictionary {
            for ordinal in 0..<count where matches(dictionary.term(UInt64(ordinal))) { allowed[ordinal] = true }
        }
        if let matches = exclude?.matcher(), let dictionary {
            for ordinal in 0..<count where matches(dictionary.term(UInt64(ordinal))) { allowed[ordinal] = false }
        }
        return allowed
    }
}
