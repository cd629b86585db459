/// Strict RFC 8259 JSON parsing over UTF-8 bytes, built for document ingestion (one JSONL line
/// per call) and small configuration files.
///
/// ## Design
///
/// - **One pass, no recursion.** ``JSONReader`` walks the buffer once with an explicit stack of
///   open containers, so nesting depth costs heap, not call stack: `maxDepth` is a policy limit
///   that turns hostile input into an error, and no value of it can overflow the thread's stack.
/// - **Children gather on shared stacks.** Elements and members of every open container are
///   appended to two reader-wide arrays; closing a container copies its slice into one
///   exactly-sized array. A JSONL document therefore allocates once per container and once per
///   string instead of regrowing each array as it fills.
/// - **Strings are scanned eight bytes at a time.** A SWAR test finds the next quote, backslash,
///   control character or non-ASCII byte in a 64-bit word. A string without escapes — nearly all
///   of them in practice — is copied with one `memcpy` into its result; one with escapes is
///   assembled run by run in a reusable scratch buffer and copied out once. Non-ASCII bytes are
///   validated as UTF-8 (shortest form, no surrogates, at most U+10FFFF) where they are found.
/// - **Numbers keep their classification.** Integer literals that fit `Int64` or `UInt64` stay
///   exact; other literals become correctly rounded doubles — by Clinger's exact fast path when
///   the significand fits 53 bits and the power of ten is at most 10^22, otherwise by the C
///   library's correctly rounded `strtod` through `Double(_: String)`.
/// - **Errors are values with offsets.** Every rejection throws a ``JSONError`` naming what was
///   expected and the byte offset where it was not found; the error path is out of line so the
///   accepting path stays small.
///
/// Strictness follows RFC 8259 with no extensions: no comments, trailing commas, single quotes,
/// leading zeros, `NaN`/`Infinity`, unescaped control characters, invalid UTF-8 in strings, or
/// unpaired surrogate escapes. Any value may stand at the top level. Object keys may repeat;
/// duplicates are returned in order for the caller to reject.
package enum JSONParser {
    /// The nesting limit used when none is given: far deeper than any document or config the
    /// engine reads, far shallower than anything that would hurt.
    package static let defaultMaxDepth = 256

    /// Parses exactly one JSON value, with optional whitespace around it.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text; only read during the call.
    ///   - maxDepth: the most arrays and objects that may be open at once.
    /// - Throws: ``JSONError`` with the byte offset of the first problem.
    /// - Complexity: O(*n*) in the length of `bytes`.
    package static func parse(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth
    ) throws(JSONError) -> JSONValue {
        var reader = unsafe JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }

    /// Parses exactly one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONError`` with the byte offset of the first problem.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        // `withUnsafeBytes` only rethrows, so the typed error travels out in a `Result`.
        let result = unsafe bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) in try unsafe parse(raw, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from a string's UTF-8 encoding.
    ///
    /// - Throws: ``JSONError`` with the byte offset (in UTF-8) of the first problem.
    package static func parse(_ string: String, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        var string = string
        let result = string.withUTF8 { utf8 in
            Result { () throws(JSONError) in try unsafe parse(UnsafeRawBufferPointer(utf8), maxDepth: maxDepth) }
        }
        return try result.get()
    }
}
