#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The queries a user ran, most recent first, kept in a small file the app chooses (by default beside the index).
///
/// ```swift
/// let history = try SearchHistory(beside: index)
/// try history.record("heat")
/// for entry in history.recent(limit: 5) { print(entry.query, entry.count) }
/// ```
///
/// Queries are trimmed and merged ignoring case: recording "Heat" after "heat" keeps one entry, spelled "Heat",
/// with its count raised and its time updated. Past `capacity` entries, the least recently used are dropped.
/// Every change is written to the file atomically and durably before the call returns; when the write fails the
/// history stays as it was. The history is independent of the index: a damaged or unreadable file fails only
/// the calls on the history, with a typed error, never a search.
///
/// Safe to share between threads and tasks; keep one `SearchHistory` per file, since two (in one process or two)
/// would each overwrite the other's changes.
public final class SearchHistory: Sendable {
    /// One remembered query.
    public struct Entry: Sendable, Hashable {
        /// The query, as spelled the last time it was recorded.
        public var query: String
        /// How many times it was recorded.
        public var count: Int
        /// When it was last recorded (kept to the microsecond).
        public var lastUsed: Date

        /// An entry with the given fields.
        public init(query: String, count: Int, lastUsed: Date) {
            self.query = query
            self.count = count
            self.lastUsed = lastUsed
        }
    }

    /// The file the history is kept in.
    public let path: String
    /// The most entries kept; the least recently used go first beyond it.
    public let capacity: Int
    private let state: Locked<HistoryState>

    /// Opens the history kept at `path`, reading the file if there is one (none is an empty history); the file is
    /// created by the first change.
    /// - Parameter capacity: the most entries kept (≥ 1); a file holding more keeps its most recent ones.
    /// - Throws: `IndexError` `.corruption` for a damaged file (naming it and the byte offset), `.incompatibleFormat`
    ///   for one written by a newer Loupe, `.io` for one that cannot be read, `.invalidArgument` for a capacity
    ///   below 1.
    public init(path: String, capacity: Int = 1_000) throws(IndexError) {
        guard capacity >= 1 else {
            throw IndexError(.invalidArgument, "a search history's capacity must be at least 1, not \(capacity)")
        }
        self.path = path
        self.capacity = capacity
        var history = HistoryState(capacity: capacity)
        if let records = try SearchHistoryFile.read(path: path) { history.load(records) }
        state = Locked(history)
    }

    /// Opens the history kept in `search-history.bin` inside the index's folder.
    /// - Throws: `IndexError` `.invalidArgument` for an in-memory index (it has no folder; use `init(path:)`), and
    ///   what `init(path:capacity:)` throws.
    public convenience init(beside index: Index, capacity: Int = 1_000) throws(IndexError) {
        guard let directory = index.directory as? MmapDirectory else {
            throw IndexError(
                .invalidArgument, "an in-memory index has no folder to keep a search history in; pass a path")
        }
        try self.init(path: directory.path + "/" + SearchHistoryFile.defaultFileName, capacity: capacity)
    }

    /// Remembers that `query` was run at `date`: trimmed of surrounding white space, ignored when empty, merged
    /// ignoring case with an entry already there (which takes this spelling, one more use and `date`), then saved.
    /// - Throws: `IndexError` `.io` when the file cannot be written (the history is then unchanged), or
    ///   `.invalidArgument` for a date too far from 1970 to store in microseconds.
    public func record(_ query: String, at date: Date = Date()) throws(IndexError) {
        let text = Self.trimmed(query)
        guard !text.isEmpty else { return }
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 9.2e12 else {
            throw IndexError(.invalidArgument, "the date \(date) is out of the range a search history stores")
        }
        let micros = Int64((seconds * 1_000_000).rounded())
        try update { history in history.record(text, micros: micros) }
    }

    /// The most recently used entries, newest first, at most `limit` of them.
    public func recent(limit: Int = 10) -> [Entry] {
        let records = state.withLock { history in history.newestFirst(limit: max(0, limit)) }
        return records.map { record in
            Entry(
                query: record.query, count: record.count,
                lastUsed: Date(timeIntervalSince1970: Double(record.lastUsedMicros) / 1_000_000))
        }
    }

    /// Forgets `query` (trimmed, matched ignoring case) and saves; nothing happens when it is not there.
    /// - Throws: `IndexError` `.io` when the file cannot be written (the history is then unchanged).
    public func remove(_ query: String) throws(IndexError) {
        let key = Self.trimmed(query).lowercased()
        try update { history in history.remove(key: key) }
    }

    /// Forgets every entry and saves the empty history.
    /// - Throws: `IndexError` `.io` when the file cannot be written (the history is then unchanged).
    public func clear() throws(IndexError) {
        try update { history in
            let changed = !history.entries.isEmpty
            history.entries = [:]
            return changed
        }
    }

    /// The number of entries.
    public var count: Int { state.withLock { history in history.entries.count } }

    /// Applies `change` to a copy of the state, saves the copy when `change` reports a change, and only then
    /// keeps it: the lock is held throughout, so saves happen one at a time and in the order of the changes.
    private func update(_ change: (inout HistoryState) -> Bool) throws(IndexError) {
        let path = self.path
        try state.withLock { (history: inout HistoryState) throws(IndexError) in
            var next = history
            guard change(&next) else { return }
            try SearchHistoryFile.write(next.oldestFirst(), path: path)
            history = next
        }
    }

    private static func trimmed(_ query: String) -> String {
        var scalars = Substring(query).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
