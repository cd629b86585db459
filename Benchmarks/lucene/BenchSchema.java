/*
 * The benchmark's schema (the normalized dict compare.py writes into the job file) as Lucene fields and queries.
 *
 *   text     a tokenized Field (TantivyAnalysis), index options from "record" (basic = DOCS, freq, position)
 *   string   one untokenized term of the whole value, DOCS only (tantivy's raw tokenizer, basic record); with
 *            norms, as tantivy keeps a field norm (the number of values) for these fields too, which orders hits
 *   bool     the keyword "true" or "false", no norms
 *   u64, i64 a LongPoint; date as a LongPoint of microseconds since the epoch (RFC 3339 in the JSON)
 *   f64      a DoublePoint
 * Numeric fields marked fast also get a SortedNumericDocValuesField (the column tantivy's fast fields are), and
 * their ranges become IndexOrDocValuesQuery, as Lucene's own LongField does. Stored fields are StoredFields.
 * A JSON array adds every value; a value of the wrong JSON type fails the document, as tantivy's add_json does.
 */
import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.util.NumericUtils;

final class BenchSchema {
    enum Kind { TEXT, STRING, BOOL, U64, I64, F64, DATE }

    /** A value that does not fit its field: fails the document, or the query. */
    static final class BadValue extends Exception {
        private static final long serialVersionUID = 1L;

        BadValue(String message) {
            super(message, null, false, false);
        }
    }

    final List<FieldSpec> fields = new ArrayList<>();
    final Map<String, FieldSpec> byName = new LinkedHashMap<>();
    final List<String> defaultFields = new ArrayList<>();
    final String idField;
    final Analyzer analyzer;

    BenchSchema(JsonNode json) {
        Map<String, String> tokenizers = new LinkedHashMap<>();
        for (JsonNode f : json.get("fields")) {
            FieldSpec spec = new FieldSpec(f);
            fields.add(spec);
            byName.put(spec.name, spec);
            if (spec.kind == Kind.TEXT) tokenizers.put(spec.name, spec.tokenizer);
        }
        json.get("default_fields").forEach(name -> defaultFields.add(name.asText()));
        JsonNode id = json.get("id_field");
        idField = id == null || id.isNull() ? null : id.asText();
        analyzer = TantivyAnalysis.perField(tokenizers);
    }

    /** The Lucene document of one corpus line. */
    Document document(JsonNode json) throws BadValue {
        if (!json.isObject()) throw new BadValue("a document must be a JSON object");
        Document doc = new Document();
        for (FieldSpec spec : fields) {
            JsonNode value = json.get(spec.name);
            if (value == null || value.isNull()) continue;
            if (value.isArray()) {
                for (JsonNode item : value) spec.add(doc, item);
            } else {
                spec.add(doc, value);
            }
        }
        return doc;
    }

    /** One field: how its JSON values become Lucene fields, and how query text becomes a query on it. */
    static final class FieldSpec {
        final String name;
        final Kind kind;
        final boolean stored;
        final boolean indexed;
        final boolean fast;
        final String tokenizer;
        /** For text, string and bool fields. */
        private final FieldType termType;

        FieldSpec(JsonNode json) {
            name = json.get("name").asText();
            String type = json.get("type").asText();
            kind = switch (type) {
                case "text" -> Kind.TEXT;
                case "string" -> Kind.STRING;
                case "bool" -> Kind.BOOL;
                case "u64" -> Kind.U64;
                case "i64" -> Kind.I64;
                case "f64" -> Kind.F64;
                case "date" -> Kind.DATE;
                default -> throw new IllegalArgumentException("field '" + name + "': unknown type '" + type + "'");
            };
            stored = json.path("stored").asBoolean(false);
            indexed = json.path("indexed").asBoolean(true);
            fast = json.path("fast").asBoolean(false);
            tokenizer = kind == Kind.TEXT ? json.path("tokenizer").asText("default") : "raw";
            termType = new FieldType();
            termType.setStored(stored);
            if (indexed && kind == Kind.TEXT) {
                termType.setTokenized(true);
                termType.setIndexOptions(switch (json.path("record").asText("position")) {
                    case "basic" -> IndexOptions.DOCS;
                    case "freq" -> IndexOptions.DOCS_AND_FREQS;
                    default -> IndexOptions.DOCS_AND_FREQS_AND_POSITIONS;
                });
            } else if (indexed) {
                termType.setTokenized(false);
                termType.setOmitNorms(kind == Kind.BOOL);
                termType.setIndexOptions(IndexOptions.DOCS);
            }
            termType.freeze();
        }

        void add(Document doc, JsonNode value) throws BadValue {
            switch (kind) {
                case TEXT, STRING -> {
                    if (!value.isTextual()) throw new BadValue(name + ": expected a string");
                    addTerm(doc, value.textValue());
                }
                case BOOL -> {
                    if (!value.isBoolean()) throw new BadValue(name + ": expected true or false");
                    addTerm(doc, value.booleanValue() ? "true" : "false");
                }
                case U64, I64, DATE -> {
                    long number = longOf(value);
                    if (indexed) doc.add(new LongPoint(name, number));
                    if (fast) doc.add(new SortedNumericDocValuesField(name, number));
                    if (stored) doc.add(new StoredField(name, number));
                }
                case F64 -> {
                    if (!value.isNumber()) throw new BadValue(name + ": expected a number");
                    double number = value.doubleValue();
                    if (indexed) doc.add(new DoublePoint(name, number));
                    if (fast) doc.add(new SortedNumericDocValuesField(name, NumericUtils.doubleToSortableLong(number)));
                    if (stored) doc.add(new StoredField(name, number));
                }
            }
        }

        private void addTerm(Document doc, String text) {
            if (indexed || stored) doc.add(new Field(name, text, termType));
        }

        private long longOf(JsonNode value) throws BadValue {
            if (kind == Kind.DATE) {
                if (!value.isTextual()) throw new BadValue(name + ": expected an RFC 3339 date string");
                return micros(value.textValue());
            }
            if (!value.isIntegralNumber() || !value.canConvertToLong() || (kind == Kind.U64 && value.longValue() < 0)) {
                throw new BadValue(name + ": expected " + (kind == Kind.U64 ? "an unsigned" : "an") + " integer");
            }
            return value.longValue();
        }

        private long micros(String text) throws BadValue {
            try {
                var instant = OffsetDateTime.parse(text).toInstant();
                return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new BadValue(name + ": '" + text + "' is not an RFC 3339 date");
            }
        }

        private long parseLong(String text) throws BadValue {
            if (kind == Kind.DATE) return micros(text);
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new BadValue(name + ": '" + text + "' is not an integer");
            }
        }

        private double parseDouble(String text) throws BadValue {
            try {
                return Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw new BadValue(name + ": '" + text + "' is not a number");
            }
        }

        /** `field:value` (quoted or not) on a non-text field: its one term, or the point equal to the value. */
        Query exact(String text) throws BadValue {
            return switch (kind) {
                case STRING -> new TermQuery(new Term(name, text));
                case BOOL -> {
                    if (!text.equals("true") && !text.equals("false")) {
                        throw new BadValue(name + ": expected true or false, got '" + text + "'");
                    }
                    yield new TermQuery(new Term(name, text));
                }
                case TEXT -> throw new IllegalStateException("text fields are analyzed by the query parser");
                default -> range(text, text, true, true);
            };
        }

        /** `field:[a TO b]`, `{…}` exclusive, null for an open (`*`) end. */
        Query range(String lower, String upper, boolean lowerInclusive, boolean upperInclusive) throws BadValue {
            switch (kind) {
                case TEXT, STRING -> {
                    String low = lower, high = upper;
                    if (kind == Kind.TEXT && !tokenizer.equals("raw")) {
                        low = low == null ? null : TantivyAnalysis.lowercase(low);
                        high = high == null ? null : TantivyAnalysis.lowercase(high);
                    }
                    return TermRangeQuery.newStringRange(name, low, high, lowerInclusive, upperInclusive);
                }
                case BOOL -> throw new BadValue(name + ": no ranges on a bool field");
                case F64 -> {
                    double low = lower == null ? Double.NEGATIVE_INFINITY : parseDouble(lower);
                    double high = upper == null ? Double.POSITIVE_INFINITY : parseDouble(upper);
                    if (lower != null && !lowerInclusive) low = Math.nextUp(low);
                    if (upper != null && !upperInclusive) high = Math.nextDown(high);
                    if (low > high) return new MatchNoDocsQuery();
                    return numeric(DoublePoint.newRangeQuery(name, low, high),
                            NumericUtils.doubleToSortableLong(low), NumericUtils.doubleToSortableLong(high));
                }
                default -> {
                    long low = lower == null ? Long.MIN_VALUE : parseLong(lower);
                    long high = upper == null ? Long.MAX_VALUE : parseLong(upper);
                    if (lower != null && !lowerInclusive) {
                        if (low == Long.MAX_VALUE) return new MatchNoDocsQuery();
                        low++;
                    }
                    if (upper != null && !upperInclusive) {
                        if (high == Long.MIN_VALUE) return new MatchNoDocsQuery();
                        high--;
                    }
                    if (low > high) return new MatchNoDocsQuery();
                    return numeric(LongPoint.newRangeQuery(name, low, high), low, high);
                }
            }
        }

        /** Points when indexed, the doc-values column when fast, Lucene's choice per segment when both. */
        private Query numeric(Query points, long low, long high) throws BadValue {
            if (indexed && fast) {
                return new IndexOrDocValuesQuery(points, SortedNumericDocValuesField.newSlowRangeQuery(name, low, high));
            }
            if (indexed) return points;
            if (fast) return SortedNumericDocValuesField.newSlowRangeQuery(name, low, high);
            throw new BadValue(name + ": neither indexed nor fast");
        }
    }
}
