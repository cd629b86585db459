import LoupeAnalysis

/// One segment being built in memory.
package struct SegmentWriter {
    /// What the indexer tracks per term while documents arrive (24 bytes, one array per field).
    package struct TermState {
        package var stream: ByteStreamArena.Stream
        /// The last document holding the term, `noDocument` before the first.
        var lastDoc: UInt32 = TermState.noDocument
        /// In `lastDoc`: the term's last position with positions recorded, its frequency so far with frequencies
        /// only (a field records one or the other, so one word serves both).
        var inDocument: UInt32 = 0

        static let noDocument = UInt32.max
    }

    /// The postings being built for one indexed field.
    package struct FieldIndex {
        package let field: Int
        package let record: IndexRecordOption
        package var terms = TermHashMap()
        package var states: [TermState] = []
        /// Exact token count of each document in this field.
        package var norms: [UInt32] = []
        package var totalTokens: UInt64 = 0

        var memoryUsage: Int {
            terms.memoryUsage + states.capacity * MemoryLayout<TermState>.stride + norms.capacity * 4
        }
    }

    /// The segment's id, chosen up front: its store file may be written before the flush.
    package let id: SegmentID
    package let schema: Schema
    /// What one segment may hold (documents are checked against the other limits before they reach a writer).
    package let limits: IndexLimits
    /// One entry per indexed field; an entry is nil only while `index` has moved it out.
    private var indexes: [FieldIndex?] = []
    /// FieldIndex slot of each schema field, nil when the field is not indexed.
    private let slots: [Int?]
    private var analyzers: [AnalysisSession?]
    package let arena = ByteStreamArena()
    package private(set) var store = DocStoreWriter()
    /// Where the store's compressed blocks go as they pile up; nil keeps them in memory until the flush.
    package let storeSpill: StoreSpill?
    package private(set) var fast: ColumnarWriter
    package private(set) var maxDoc: UInt32 = 0

    /// - Parameter directory: the folder the segment will be flushed to, where its store is written as it grows
    ///   (`StoreSpill`); nil keeps the whole store in memory until the flush.
    package init(
        schema: Schema, analyzers registry: AnalyzerRegistry, limits: IndexLimits = .default,
        spillingStoreTo directory: (any Directory)? = nil
    ) throws(IndexError) {
        self.schema = schema
        let id = SegmentID()
        self.id = id
        storeSpill = directory.map { StoreSpill(directory: $0, segment: id) }
        self.limits = limits
        var slots = [Int?](repeating: nil, count: schema.fields.count)
        var analyzers = [AnalysisSession?](repeating: nil, count: schema.fields.count)
        for (i, entry) in schema.fields.enumerated() where entry.indexed {
            slots[i] = indexes.count
            indexes.append(FieldIndex(field: i, record: entry.record))
            if entry.type == .text {
                guard let analyzer = registry.analyzer(named: entry.tokenizer) else {
                    throw IndexError(
                        .invalidArgument, "field '\(entry.name)': unknown tokenizer '\(entry.tokenizer)'",
                        context: .init(field: entry.name))
                }
                analyzers[i] = AnalysisSession(analyzer)
            }
        }
        self.slots = slots
        self.analyzers = analyzers
        fast = ColumnarWriter(schema: schema)
    }

    /// The postings being built, one per indexed field in schema order.
    package var fields: [FieldIndex] { indexes.compactMap { $0 } }

    /// Bytes held by this segment, compared against the writer's memory budget.
    package var memoryUsage: Int {
        indexes.reduce(arena.memoryUsage + store.memoryUsage + fast.memoryUsage) { $0 + ($1?.memoryUsage ?? 0) }
    }

    /// Whether the segment holds `limits.documentsPerSegment` documents: it must be flushed before the next add.
    package var isFull: Bool { Int(maxDoc) >= limits.documentsPerSegment }

    /// Indexes one document as document number `maxDoc`.
    /// - Precondition: `!isFull`, and the document passed `IndexLimits.check`.
    package mutating func add(_ document: PreparedDocument) {
        precondition(!isFull, "a full segment is flushed before the next document")
        let items = document.items
        let doc = maxDoc
        for f in indexes.indices { indexes[f]?.norms.append(0) }
        unsafe document.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i < items.count {
                let field = items[i].field
                var end = i
                while end < items.count && items[end].field == field { end += 1 }
                if let slot = slots[field] {
                    unsafe index(items[i..<end], bytes: bytes, field: field, slot: slot, doc: doc)
                }
                i = end
            }
        }
        store.add(document, schema: schema)
        if let storeSpill, store.pendingCount >= StoreSpill.threshold { storeSpill.move(&store) }
        fast.add(document, doc: doc)
        maxDoc += 1
    }

    /// Indexes the values one document has for one field. The field's state is moved out of `indexes` for the
    /// duration (no copy, no allocation), so the per-token updates touch a uniquely owned local instead of a
    /// nested array element.
    private mutating func index(
        _ values: ArraySlice<(field: Int, value: PreparedDocument.Item)>, bytes: UnsafeBufferPointer<UInt8>,
        field: Int, slot: Int, doc: UInt32
    ) {
        guard var target = indexes[slot].take() else { return }
        var tokens: UInt32 = 0
        let arena = self.arena
        // Moved out and back, not copied: a copy would retain the session's buffers once per field per document.
        if var session = analyzers[field].take() {
            defer { analyzers[field] = session }
            var start = 0
            for v in values {
                guard case .bytes(let range) = v.value else { continue }
                // Through a buffer pointer: `Array.span` needs macOS 26 / iOS 26 (see Package.swift).
                let text = unsafe UnsafeBufferPointer(rebasing: bytes[range])
                let summary = unsafe session.analyze(text.span, startPosition: start) { term, position in
                    unsafe term.withUnsafeBufferPointer {
                        unsafe Self.record($0, in: &target, arena: arena, doc: doc, position: UInt32(position))
                    }
                }
                tokens += UInt32(summary.tokenCount)
                start = summary.endPosition + AnalysisLimits.positionGap
            }
        } else {
            for (ordinal, v) in values.enumerated() {
                switch v.value {
                case .bytes(let range):
                    unsafe Self.record(
                        UnsafeBufferPointer(rebasing: bytes[range]), in: &target, arena: arena, doc: doc,
                        position: UInt32(ordinal))
                case .mapped(let mapped):
                    unsafe withUnsafeBytes(of: mapped.bigEndian) {
                        unsafe Self.record(
                            $0.assumingMemoryBound(to: UInt8.self), in: &target, arena: arena, doc: doc,
                            position: UInt32(ordinal))
                    }
                }
                tokens += 1
            }
        }
        target.norms[Int(doc)] = tokens
        target.totalTokens += UInt64(tokens)
        indexes[slot] = target
    }

    @inline(__always)
    private static func record(
        _ term: UnsafeBufferPointer<UInt8>, in index: inout FieldIndex, arena: ByteStreamArena, doc: UInt32,
        position: UInt32
    ) {
        let (id, isNew) = unsafe index.terms.insert(term)
        if isNew { index.states.append(TermState(stream: arena.newStream())) }
        let record = index.record
        unsafe index.states.withUnsafeMutableBufferPointer { states in
            let last = unsafe states[id].lastDoc
            if last != doc {
                if last != TermState.noDocument { unsafe closeDocument(&states[id], record: record, arena: arena) }
                unsafe arena.appendVInt(last == TermState.noDocument ? doc : doc - last, to: &states[id].stream)
                unsafe states[id].lastDoc = doc
                unsafe states[id].inDocument = 0
            }
            switch record {
            case .position:
                unsafe arena.appendVInt(position - states[id].inDocument + 1, to: &states[id].stream)
                unsafe states[id].inDocument = position
            case .freq: unsafe states[id].inDocument += 1
            case .basic: break
            }
        }
    }

    private static func closeDocument(_ state: inout TermState, record: IndexRecordOption, arena: ByteStreamArena) {
        switch record {
        case .position: arena.append(0, to: &state.stream)
        case .freq: arena.appendVInt(state.inDocument, to: &state.stream)
        case .basic: break
        }
    }

    /// Closes every term's open document so each stream can be decoded to its end.
    package mutating func closeAllDocuments() {
        for slot in indexes.indices {
            guard var index = indexes[slot].take() else { continue }
            for id in index.states.indices where index.states[id].lastDoc != TermState.noDocument {
                Self.closeDocument(&index.states[id], record: index.record, arena: arena)
            }
            indexes[slot] = index
        }
    }
}
