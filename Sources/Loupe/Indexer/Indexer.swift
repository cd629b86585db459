// Indexer: turns prepared documents into an in-memory segment and serializes it.
//
// SegmentWriter      one in-memory segment: per indexed field a TermHashMap, postings streams in a
//                    shared ByteStreamArena, norms; plus the doc store and fast-field writers.
// TermHashMap        open-addressing map from term bytes to a dense term id, keys kept in one arena.
// ByteStreamArena    many growing byte streams (one per term) in 1 MiB pages, as chains of slabs.
// StoreSpill         the store file a segment writes while it is indexed, once its blocks pass 1 MiB.
// SegmentSerializer  sorts each field's terms and writes the six segment files.
//
// Nothing here allocates per token once buffers have grown: terms are looked up by bytes and postings are
// appended as VInts to the term's stream. Memory use is tracked so the writer can flush at its budget.
//
// A term's stream, per document, in document order:
//   docDelta(VInt)                       — doc − previous doc of this term (the first from 0)
//   then, with positions: (position − previous position + 1)(VInt) per occurrence, and 0 to end the document
//   or, with frequencies only: tf(VInt) once the document is over
// A document is closed lazily, when the term next appears in a later document or at serialization.
