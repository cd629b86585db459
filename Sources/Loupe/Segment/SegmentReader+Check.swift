import LoupeCodec

extension SegmentReader {
    /// Reads the whole segment and reports every problem found, without stopping at the first: each file's
    /// checksum; per field, that terms are strictly increasing and each term's postings hold strictly increasing
    /// documents below maxDoc, as many as its document frequency; that fast columns' offsets and dictionaries are in
    /// order; that every stored document decompresses and decodes. Returns the number of problems.
    package func check(schema: Schema, _ report: (IndexError) -> Void) -> Int {
        var problems = 0
        func problem(_ error: IndexError) {
            problems += 1
            report(error)
        }
        for (component, file) in files {
            do {
                _ = try unsafe Footer.validate(
                    file.bytes, kind: component.kind, supportedVersion: component.formatVersion, verifyChecksum: true)
            } catch {
                problem(IndexError(format: error, file: component.fileName(id), segment: id))
            }
        }
        if let (name, file) = deletesFile {
            do {
                _ = try unsafe Footer.validate(
                    file.bytes, kind: DeletedDocsFormat.kind, supportedVersion: DeletedDocsFormat.version,
                    verifyChecksum: true)
            } catch {
                problem(IndexError(format: error, file: name, segment: id))
            }
        }
        for (field, entry) in schema.fields.enumerated() {
            guard let dictionary = terms.field(field) else { continue }
            checkTerms(dictionary, field: entry.name, hasFreqs: entry.record != .basic, problem)
        }
        let fastFile = SegmentComponent.fast.fileName(id)
        for (field, entry) in schema.fields.enumerated() {
            for message in fast.column(field)?.problems(maxDoc: maxDoc) ?? [] {
                problem(
                    IndexError(
                        .corruption, "\(fastFile): field '\(entry.name)': \(message)",
                        context: .init(file: fastFile, segment: id.description, field: entry.name)))
            }
        }
        // Block by block, outside the searchers' cache: each block is decoded once and evicts nothing.
        let storeFile = SegmentComponent.store.fileName(id)
        for b in 0..<store.blockCount {
            do {
                _ = try store.documents(ofBlock: b, schema: schema)
            } catch {
                problem(IndexError(format: error, file: storeFile, segment: id))
            }
        }
        return problems
    }

    private func checkTerms(
        _ dictionary: FieldTermDictionary, field: String, hasFreqs: Bool, _ problem: (IndexError) -> Void
    ) {
        let termsFile = SegmentComponent.terms.fileName(id)
        let postingsFile = SegmentComponent.postings.fileName(id)
        var previous: [UInt8]?
        var seen = 0
        func damaged(_ error: FormatError) {
            problem(IndexError(format: error, file: termsFile, segment: id))
        }
        var cursor: FieldTermDictionary.TermCursor
        do {
            cursor = try dictionary.cursorAtFirst()
        } catch {
            return damaged(error)
        }
        while cursor.isValid {
            let key = cursor.keyBytes
            seen += 1
            if let previous, !previous.lexicographicallyPrecedes(key) {
                problem(
                    IndexError(
                        .corruption,
                        "\(termsFile): field '\(field)': term \(seen) is not greater than the one before it",
                        context: .init(file: termsFile, segment: id.description, field: field)))
            }
            previous = key
            let info = cursor.info
            let postings = unsafe PostingsCursor(
                file: self.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: maxDoc)
            var count = 0
            var last: Int64 = -1
            var doc = postings.doc
            while doc != terminatedDoc {
                if Int64(doc) <= last || Int(doc) >= maxDoc {
                    problem(
                        IndexError(
                            .corruption,
                            "\(postingsFile): field '\(field)': term \(seen) lists document \(doc) after \(last) (max_doc \(maxDoc))",
                            context: .init(file: postingsFile, segment: id.description, field: field)))
                    break
                }
                last = Int64(doc)
                count += 1
                doc = postings.advance()
            }
            if count != Int(info.docFreq) {
                problem(
                    IndexError(
                        .corruption,
                        "\(postingsFile): field '\(field)': term \(seen) has \(count) documents, its dictionary entry says \(info.docFreq)",
                        context: .init(file: postingsFile, segment: id.description, field: field)))
            }
            do {
                _ = try cursor.next()
            } catch {
                return damaged(error)
            }
        }
        if seen != dictionary.termCount {
            problem(
                IndexError(
                    .corruption, "\(termsFile): field '\(field)': \(seen) terms readable of \(dictionary.termCount)",
                    context: .init(file: termsFile, segment: id.description, field: field)))
        }
    }
}
