/*
 * The benchmark's query lines (tantivy's query syntax, as Loupe reads it) as Lucene queries: the classic
 * MultiFieldQueryParser over the schema's default fields, with the field types of BenchSchema.
 *
 *   words, phrases   split on whitespace, default operator OR; every default field a SHOULD clause, summed; a
 *                    literal that analyzes to several tokens becomes a phrase, as in tantivy
 *   string, bool     one TermQuery of the unanalyzed text (`cast:"Morgan Freeman"` is one term)
 *   numbers, dates   exact values and ranges (`[a TO b]`, `{a TO b}`, `*` for an open end) on points
 *   field:/re/       RegexpQuery over whole terms, no optional operators (RegExp.NONE), pattern not lowercased
 *   field:word~N     FuzzyQuery(N edits, prefix 0, transpositions cost 1, Lucene's 50 expansions); `~` alone = 1
 * A field the schema lacks, or one that is not indexed, is a parse error, as it is for tantivy.
 */
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RegexpQuery;
import org.apache.lucene.util.automaton.RegExp;

final class TantivyQueryParser extends MultiFieldQueryParser {
    private final BenchSchema schema;

    TantivyQueryParser(BenchSchema schema) {
        super(schema.defaultFields.toArray(String[]::new), schema.analyzer);
        this.schema = schema;
        setDefaultOperator(OR_OPERATOR);
        setSplitOnWhitespace(true);
        setAutoGeneratePhraseQueries(true);
        setFuzzyMinSim(1f);
    }

    /** A query built for one field; the parser's entry points apply it to each default field when none is named. */
    private interface PerField {
        Query build(String field) throws ParseException;
    }

    private Query onField(String field, PerField build) throws ParseException {
        if (field != null) return build.build(field);
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        for (String name : schema.defaultFields) any.add(build.build(name), BooleanClause.Occur.SHOULD);
        return any.build();
    }

    private BenchSchema.FieldSpec spec(String field) throws ParseException {
        BenchSchema.FieldSpec spec = schema.byName.get(field);
        if (spec == null) throw new ParseException("field '" + field + "' is not in the schema");
        boolean numeric = spec.kind != BenchSchema.Kind.TEXT && spec.kind != BenchSchema.Kind.STRING
                && spec.kind != BenchSchema.Kind.BOOL;
        if (!spec.indexed && !(numeric && spec.fast)) throw new ParseException("field '" + field + "' is not indexed");
        return spec;
    }

    /** Terms and phrases: both the named-field and the default-fields paths of the parser come through here. */
    @Override
    protected Query newFieldQuery(Analyzer analyzer, String field, String text, boolean quoted) throws ParseException {
        BenchSchema.FieldSpec spec = spec(field);
        if (spec.kind == BenchSchema.Kind.TEXT) return super.newFieldQuery(analyzer, field, text, quoted);
        try {
            return spec.exact(text);
        } catch (BenchSchema.BadValue e) {
            throw new ParseException(e.getMessage());
        }
    }

    @Override
    protected Query getRangeQuery(String field, String lower, String upper, boolean lowerInclusive,
            boolean upperInclusive) throws ParseException {
        return onField(field, name -> {
            try {
                return spec(name).range(lower, upper, lowerInclusive, upperInclusive);
            } catch (BenchSchema.BadValue e) {
                throw new ParseException(e.getMessage());
            }
        });
    }

    @Override
    protected Query getFuzzyQuery(String field, String term, float edits) throws ParseException {
        if (edits != (int) edits || edits > FuzzyQuery.defaultMaxEdits) {
            throw new ParseException("fuzzy edits must be 0, 1 or 2, got " + edits);
        }
        return onField(field, name -> {
            spec(name);
            return new FuzzyQuery(new Term(name, term), (int) edits, 0, FuzzyQuery.defaultMaxExpansions, true);
        });
    }

    @Override
    protected Query getRegexpQuery(String field, String pattern) throws ParseException {
        return onField(field, name -> {
            spec(name);
            try {
                return new RegexpQuery(new Term(name, pattern), RegExp.NONE);
            } catch (IllegalArgumentException e) {
                throw new ParseException("regex /" + pattern + "/: " + e.getMessage());
            }
        });
    }
}
