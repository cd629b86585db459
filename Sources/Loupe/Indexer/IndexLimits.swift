import LoupeAnalysis

/// The engine's limits, in one place (Docs/FORMAT.md, "Limits", has the table with what happens when each is hit).
///
/// Each is either what an encoding allows, with room to spare, or a policy where the encodings would allow more
/// than a writer can sensibly buffer. A value past a limit is a typed error (`IndexError.Code.limitExceeded`,
/// with `IndexError.limit`, the value and the field) or, for documents per segment, a flush; it is never truncated
/// and never wraps. `default` is what every index uses; tests build smaller limits so the boundaries cost little.
package struct IndexLimits: Sendable, Hashable {
    /// The most documents one segment holds: 2^31 − 1.
    ///
    /// Doc ids are `UInt32` everywhere on disk (postings, store, norms, fast fields, `max_doc`), and `UInt32.max` is
    /// both the exhausted doc set's sentinel (`terminatedDoc`) and the indexer's "no document yet", so the formats
    /// allow 2^32 − 2. Half of that (Lucene's `IndexWriter.MAX_DOCS` is the same order) keeps every doc id, doc
    /// count and `doc + 1` far from those sentinels and from `Int32` in any reader arithmetic. A writer flushes its
    /// segment when it is full, and merges never build a larger one.
    package var documentsPerSegment: Int
    /// The most documents an index holds, deleted ones not yet merged away included: 2^53 − 1.
    ///
    /// Documents are addressed per segment (segment, `UInt32` doc), and index-wide counts are `Int`, so nothing
    /// wraps below 2^63; the limit keeps every count Loupe reports (`documentCount`, hit counts, aggregation
    /// `doc_count`, `idx stats --json`) exact as a JSON number read into a double (JavaScript's
    /// `Number.MAX_SAFE_INTEGER`). An add past it throws.
    package var documentsPerIndex: Int
    /// The most UTF-8 bytes of one indexed term: 65,530, tantivy's `MAX_TOKEN_LEN` (Lucene: 32,766).
    ///
    /// The term dictionary itself has no key length limit (key lengths are VInts). A string field's value is one
    /// term, an identity: a value past the limit is an error, so an id is never silently unsearchable or
    /// undeletable. A text field's analyzer may emit such a token (`raw`, `whitespace` or a custom tokenizer; the
    /// `default` analyzer already drops tokens of 40 bytes or more); it is skipped, as tantivy's indexer skips it,
    /// without taking a position, and the rest of the value is indexed (`AnalysisLimits.maxIndexedTokenByteCount`).
    package var termBytes: Int
    /// The most fields a schema declares: 1,000 (Elasticsearch's default `index.mapping.total_fields.limit`).
    ///
    /// Field ordinals are a VInt in the store and a `u32` in the other files' directories, so the formats allow
    /// billions; the cost is in the writer: each indexed field starts with a 64 KiB term table and gives every
    /// buffered document a norm slot, so a wide schema fills the memory budget with no document in it.
    package var fieldsPerSchema: Int
    /// The most bytes of one document's stored values, as the store encodes them: 256 MiB (2^28).
    ///
    /// The store's block header allows 2^32 bytes of documents per block and its compressor takes blocks under
    /// 2^30; a document passes through the writer about four times (prepared, encoded, block, compressed), so a
    /// quarter of the compressor's ceiling keeps one document's peak near 1 GiB, past Elasticsearch's 100 MB
    /// request limit.
    package var storedDocumentBytes: Int

    /// The limits every index uses.
    package static let `default` = IndexLimits()

    /// Limits with the given values, each defaulting to the engine's own; tests pass smaller ones.
    package init(
        documentsPerSegment: Int = (1 << 31) - 1, documentsPerIndex: Int = (1 << 53) - 1,
        termBytes: Int = AnalysisLimits.maxIndexedTokenByteCount, fieldsPerSchema: Int = 1_000,
        storedDocumentBytes: Int = 1 << 28
    ) {
        self.documentsPerSegment = documentsPerSegment
        self.documentsPerIndex = documentsPerIndex
        self.termBytes = termBytes
        self.fieldsPerSchema = fieldsPerSchema
        self.storedDocumentBytes = storedDocumentBytes
    }
}

extension IndexLimits {
    /// Throws unless one more document fits an index that holds `documents` (committed and buffered, deleted ones
    /// included).
    /// - Throws: `IndexError` `.limitExceeded` (`.documentsPerIndex`).
    @inline(__always)
    package func checkRoom(forDocumentAfter documents: Int) throws(IndexError) {
        guard documents < documentsPerIndex else { throw indexFull(documents) }
    }

    @inline(never)
    private func indexFull(_ documents: Int) -> IndexError {
        var error = IndexError(
            .limitExceeded,
            "the index holds \(documents) documents, the most it can (\(documentsPerIndex)); delete documents and "
                + "merge, or split the data across indexes")
        error.limit = .documentsPerIndex
        return error
    }

    /// Throws unless `document` fits the per-document limits: every indexed string value (one term) within
    /// `termBytes`, and its stored values, as the store encodes them, within `storedDocumentBytes`. Checked before
    /// the document reaches a segment writer (on the writer's thread, also when indexing threads build the segments),
    /// so a refused document leaves nothing behind.
    /// - Throws: `IndexError` `.limitExceeded` (`.termBytes` or `.storedDocumentBytes`) naming the field.
    package func check(_ document: PreparedDocument, schema: Schema) throws(IndexError) {
        var stored = 0
        var storedCount = 0
        for v in document.items {
            // Each property read in place: a copy of the field entry would retain its strings per value.
            if case .bytes(let term) = v.value, term.count > termBytes, schema.fields[v.field].indexed,
                schema.fields[v.field].type == .string
            {
                throw termTooLong(term.count, field: schema.fields[v.field].name)
            }
            if schema.fields[v.field].stored {
                storedCount += 1
                stored +=
                    StoredValueCoding.vintSize(UInt64(v.field))
                    + StoredValueCoding.encodedSize(v.value, type: schema.fields[v.field].type)
            }
        }
        stored += StoredValueCoding.vintSize(UInt64(storedCount))
        guard stored > storedDocumentBytes else { return }
        throw storedDocumentTooLarge(stored, largestField: largestStoredField(document, schema: schema))
    }

    /// The stored field holding most of `document`'s stored bytes, for the error that names it.
    private func largestStoredField(_ document: PreparedDocument, schema: Schema) -> String? {
        var bytes = [Int](repeating: 0, count: schema.fields.count)
        for v in document.items where schema.fields[v.field].stored {
            bytes[v.field] += StoredValueCoding.encodedSize(v.value, type: schema.fields[v.field].type)
        }
        return bytes.indices.max { bytes[$0] < bytes[$1] }.map { schema.fields[$0].name }
    }

    /// The error for a string field value of `byteCount` bytes, past `termBytes`.
    @inline(never)
    package func termTooLong(_ byteCount: Int, field: String) -> IndexError {
        var error = IndexError(
            .limitExceeded,
            "field '\(field)': a string value of \(byteCount) bytes is longer than the \(termBytes) bytes a term may "
                + "have; index it as a text field, or store a hash of it",
            context: .init(field: field))
        error.limit = .termBytes
        return error
    }

    /// The error for a document whose stored values encode to `byteCount` bytes, past `storedDocumentBytes`.
    @inline(never)
    package func storedDocumentTooLarge(_ byteCount: Int, largestField: String?) -> IndexError {
        let culprit = largestField.map { ", most of it in field '\($0)'" } ?? ""
        var error = IndexError(
            .limitExceeded,
            "the document's stored values take \(byteCount) bytes\(culprit), more than the \(storedDocumentBytes) "
                + "a document may store; store less of it (\"stored\": false) or split it",
            context: .init(field: largestField))
        error.limit = .storedDocumentBytes
        return error
    }

    /// Throws when `fields` are more than `fieldsPerSchema`.
    /// - Throws: `IndexError` `.limitExceeded` (`.fieldsPerSchema`), naming the first field past the limit.
    package func checkFieldCount(_ fields: [FieldEntry]) throws(IndexError) {
        guard fields.count > fieldsPerSchema else { return }
        let first = fields[fieldsPerSchema].name
        var error = IndexError(
            .limitExceeded,
            "schema: \(fields.count) fields, more than the \(fieldsPerSchema) a schema may declare (from field "
                + "'\(first)' on); put the variable part in fewer fields (a text field holds any number of words)",
            context: .init(field: first))
        error.limit = .fieldsPerSchema
        throw error
    }
}
