/// The entries of a `SearchHistory`, keyed by the lowercased query, and the order they were used in.
package struct HistoryState: Sendable {
    /// An entry and the sequence number of its last use, which orders entries of equal time.
    package struct Slot: Sendable {
        package var record: SearchHistoryRecord
        package var sequence: UInt64
    }

    package let capacity: Int
    package var entries: [String: Slot] = [:]
    private var nextSequence: UInt64 = 0

    package init(capacity: Int) { self.capacity = capacity }

    /// Takes the records of a file (least recently used first), keeping the most recent `capacity`.
    package mutating func load(_ records: [SearchHistoryRecord]) {
        for record in records {
            entries[record.query.lowercased()] = Slot(record: record, sequence: nextSequence)
            nextSequence += 1
        }
        evict()
    }

    /// Adds one use of `query` at `micros`; always a change.
    package mutating func record(_ query: String, micros: Int64) -> Bool {
        let key = query.lowercased()
        var record = entries[key]?.record ?? SearchHistoryRecord(query: query, count: 0, lastUsedMicros: micros)
        record.query = query
        record.count += 1
        record.lastUsedMicros = micros
        entries[key] = Slot(record: record, sequence: nextSequence)
        nextSequence += 1
        evict()
        return true
    }

    /// Drops the entry of `key`; whether there was one.
    package mutating func remove(key: String) -> Bool {
        entries.removeValue(forKey: key) != nil
    }

    /// Every record, least recently used first.
    package func oldestFirst() -> [SearchHistoryRecord] {
        entries.values.sorted(by: Self.older).map(\.record)
    }

    /// The `limit` most recently used records, newest first.
    package func newestFirst(limit: Int) -> [SearchHistoryRecord] {
        Array(entries.values.sorted { Self.older($1, $0) }.prefix(limit).map(\.record))
    }

    private static func older(_ a: Slot, _ b: Slot) -> Bool {
        (a.record.lastUsedMicros, a.sequence) < (b.record.lastUsedMicros, b.sequence)
    }

    /// Drops the least recently used entries beyond `capacity`.
    private mutating func evict() {
        guard entries.count > capacity else { return }
        let excess = entries.count - capacity
        let oldest = entries.sorted { Self.older($0.value, $1.value) }.prefix(excess)
        for (key, _) in oldest { entries.removeValue(forKey: key) }
    }
}
