import Loupe

/// A random index for differential tests: documents made one by one, commits at random (so several segments),
/// random deletes by id, merges by the given policy, sometimes everything merged into one segment. Returns the
/// index, reloaded after its last commit, and the rows still live, in the order they were added.
///
/// - Parameters:
///   - documents: the number of documents added, deleted ones included.
///   - deleteOneIn: on average one delete per this many documents.
///   - row: the `i`-th random row; `id` its value of the string field `idField`; `document` the row as a document.
public func randomIndex<Row>(
    schema: Schema, seed: UInt64, rng: inout SplitMix64, documents: Int, deleteOneIn: Int, idField: String = "id",
    row: (Int, inout SplitMix64) -> Row, id: (Row) -> String, document: (Row) -> Document
) throws -> (index: Index, live: [Row]) {
    let index = try Index.inMemory(schema: schema)
    let writer = try index.writer()
    writer.mergePolicy = seed % 3 == 0 ? .never : MergePolicy(minimumSegmentSize: 50)
    var live: [Row] = []
    for i in 0..<documents {
        let next = row(i, &rng)
        try writer.addDocument(document(next))
        live.append(next)
        if Int.random(in: 0..<60, using: &rng) == 0 { try writer.commit() }
        if Int.random(in: 0..<deleteOneIn, using: &rng) == 0, let victim = live.randomElement(using: &rng) {
            try writer.deleteDocuments(field: idField, equals: .text(id(victim)))
            live.removeAll { id($0) == id(victim) }
        }
    }
    try writer.commit()
    if seed % 4 == 1 { try writer.merge() }
    writer.waitForMerges()
    try writer.commitAndReload()
    return (index, live)
}
