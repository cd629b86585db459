import LoupeAnalysis

/// One segment being built in memory.
package struct SegmentWriter {
    /// Per-term state of one field, indexed by term id.
    package struct FieldIndex {
        package let field: Int
        package let record: IndexRecordOption
        package var terms = TermHashMap()
        package var streams: [ByteStreamArena.Stream] = []
        package var lastDoc: [UInt32] = []
        package var termFrequency: [UInt32] = []
        package var lastPosition: [UInt32] = []
        package var docFrequency: [UInt32] = []
        /// Exact token count of each document in this field.
        package var norms: [UInt32] = []
        package var totalTokens: UInt64 = 0

        /// Marks a term with no document yet.
        static let noDocument = UInt32.max

        var memoryUsage: Int { terms.memoryUsage + streams.capacity * 16 + (lastDoc.capacity * 4) * 4 + norms.capacity * 4 }
    }

    package let schema: Schema
    package private(set) var fields: [FieldIndex] = []
    /// FieldIndex slot of each schema field, nil when the field is not indexed.
    private let slots: [Int?]
    private var analyzers: [AnalysisSession?]
    package private(set) var arena = ByteStreamArena()
    package private(set) var store = DocStoreWriter()
    package private(set) var fast: FastFieldsWriter
    package private(set) var maxDoc: UInt32 = 0

    package init(schema: Schema, analyzers registry: AnalyzerRegistry) throws(IndexError) {
        self.schema = schema
        var slots = [Int?](repeating: nil, count: schema.fields.count)
        var analyzers = [AnalysisSession?](repeating: nil, count: schema.fields.count)
        for (i, entry) in schema.fields.enumerated() where entry.indexed {
            slots[i] = fields.count
            fields.append(FieldIndex(field: i, record: entry.record))
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
        fast = FastFieldsWriter(schema: schema)
    }

    /// Bytes held by this segment, compared against the writer's memory budget.
    package var memoryUsage: Int {
        fields.reduce(arena.memoryUsage + store.memoryUsage + fast.memoryUsage) { $0 + $1.memoryUsage }
    }

    /// Indexes one document as document number `maxDoc`.
    package mutating func add(_ document: PreparedDocument) {
        let doc = maxDoc
        for f in fields.indices { fields[f].norms.append(0) }
        var i = 0
        let values = document.values
        while i < values.count {
            let field = values[i].field
            var end = i
            while end < values.count && values[end].field == field { end += 1 }
            if let slot = slots[field] { index(values[i..<end], field: field, slot: slot, doc: doc) }
            i = end
        }
        store.add(document, schema: schema)
        fast.add(document)
        maxDoc += 1
    }

    private mutating func index(
        _ values: ArraySlice<(field: Int, value: PreparedDocument.Value)>, field: Int, slot: Int, doc: UInt32
    ) {
        var tokens: UInt32 = 0
        if var session = analyzers[field] {
            analyzers[field] = nil
            var start = 0
            for v in values {
                guard case .bytes(let text) = v.value else { continue }
                let summary = session.analyze(text.span, startPosition: start) { term, position in
                    unsafe term.withUnsafeBufferPointer { unsafe self.record($0, slot: slot, doc: doc, position: UInt32(position)) }
                }
                tokens += UInt32(summary.tokenCount)
                start = summary.endPosition + AnalysisLimits.positionGap
            }
            analyzers[field] = session
        } else {
            for (ordinal, v) in values.enumerated() {
                switch v.value {
                case .bytes(let bytes):
                    unsafe bytes.withUnsafeBufferPointer { unsafe record($0, slot: slot, doc: doc, position: UInt32(ordinal)) }
                case .mapped(let mapped):
                    unsafe withUnsafeBytes(of: mapped.bigEndian) {
                        unsafe record($0.assumingMemoryBound(to: UInt8.self), slot: slot, doc: doc, position: UInt32(ordinal))
                    }
                }
                tokens += 1
            }
        }
        fields[slot].norms[Int(doc)] = tokens
        fields[slot].totalTokens += UInt64(tokens)
    }

    @inline(__always)
    private mutating func record(_ term: UnsafeBufferPointer<UInt8>, slot: Int, doc: UInt32, position: UInt32) {
        let (id, isNew) = unsafe fields[slot].terms.insert(term)
        if isNew {
            fields[slot].streams.append(arena.newStream())
            fields[slot].lastDoc.append(FieldIndex.noDocument)
            fields[slot].termFrequency.append(0)
            fields[slot].lastPosition.append(0)
            fields[slot].docFrequency.append(0)
        }
        let record = fields[slot].record
        let last = fields[slot].lastDoc[id]
        if last != doc {
            if last != FieldIndex.noDocument { closeDocument(slot: slot, term: id) }
            let delta = last == FieldIndex.noDocument ? doc : doc - last
            arena.appendVInt(delta, to: &fields[slot].streams[id])
            fields[slot].lastDoc[id] = doc
            fields[slot].docFrequency[id] += 1
            fields[slot].termFrequency[id] = 0
            fields[slot].lastPosition[id] = 0
        }
        fields[slot].termFrequency[id] += 1
        if record == .position {
            arena.appendVInt(position - fields[slot].lastPosition[id] + 1, to: &fields[slot].streams[id])
            fields[slot].lastPosition[id] = position
        }
    }

    private mutating func closeDocument(slot: Int, term id: Int) {
        switch fields[slot].record {
        case .position: arena.append(0, to: &fields[slot].streams[id])
        case .freq: arena.appendVInt(fields[slot].termFrequency[id], to: &fields[slot].streams[id])
        case .basic: break
        }
    }

    /// Closes every term's open document so each stream can be decoded to its end.
    package mutating func closeAllDocuments() {
        for slot in fields.indices {
            for id in 0..<fields[slot].terms.count where fields[slot].lastDoc[id] != FieldIndex.noDocument {
                closeDocument(slot: slot, term: id)
            }
        }
    }
}
