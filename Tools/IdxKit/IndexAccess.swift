import Foundation
import Loupe
import LoupeQueryGrammar

/// Runs an engine call, turning its `IndexError` into the command's failure: `try engine(index.reload())`.
func engine<T>(_ body: @autoclosure () throws(IndexError) -> T) throws(CommandFailure) -> T {
    do {
        return try body()
    } catch {
        throw CommandFailure(error)
    }
}

/// Runs an engine call that parses `query`, turning an error about the query into a message that points at the
/// offending character.
func querying<R>(_ query: String, _ body: () throws(IndexError) -> R) throws(CommandFailure) -> R {
    do {
        return try body()
    } catch {
        let failure = CommandFailure(error)
        // A multi-line message quotes the query itself.
        guard error.code == .invalidQuery, !error.message.contains("\n"), let byte = error.context.byteOffset else {
            throw failure
        }
        throw CommandFailure(failure.message + "\n" + QuerySyntaxError.pointer(at: byte, in: query))
    }
}

/// Opens the existing index in `directory`, saying how to create one when there is none.
/// - Throws: `CommandFailure` when there is no index or it cannot be read.
func openIndex(_ directory: String) throws(CommandFailure) -> Index {
    guard let index = try openIndexIfPresent(directory) else {
        throw CommandFailure(
            "no index at \(directory); create one with 'idx create \(directory) --schema S.json' "
                + "or 'idx index \(directory) FILE --schema S.json'")
    }
    return index
}

/// Opens the index in `directory`, or returns nil when there is none (no folder or no meta.json).
/// - Throws: `CommandFailure` when an index is there but cannot be read.
func openIndexIfPresent(_ directory: String) throws(CommandFailure) -> Index? {
    do {
        return try Index(path: directory)
    } catch  where error.code == .notFound {
        return nil
    } catch {
        throw CommandFailure(error)
    }
}

/// The search history kept beside `index` (`SearchHistory(beside:)`), read when its file exists; opening it never
/// creates the file, only recording does.
/// - Throws: `CommandFailure` when the file is there but damaged or unreadable.
func openHistory(beside index: Index) throws(CommandFailure) -> SearchHistory {
    try engine(SearchHistory(beside: index))
}

/// Reads and checks the schema JSON file at `path`.
/// - Throws: `CommandFailure` naming the file, when it cannot be read or is not a valid schema.
func loadSchema(_ path: String) throws(CommandFailure) -> Schema {
    let text: String
    do {
        text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw CommandFailure("cannot read schema \(path): \(error.localizedDescription)")
    }
    do {
        return try Schema(json: text)
    } catch {
        throw CommandFailure("\(path): \(CommandFailure(error).message)")
    }
}
