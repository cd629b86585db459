/*
 * Lucene analyzers that cut and normalize text as tantivy 0.27's built-in tokenizers do, so that Lucene indexes
 * the same terms as tantivy and Loupe for the side-by-side benchmark (Benchmarks/compare.py, lucene engine).
 *
 *   default   SimpleTokenizer → RemoveLongFilter(40) → LowerCaser: maximal runs of Unicode alphanumeric code
 *             points (Rust's char::is_alphanumeric: the Alphabetic property, or general category Nd, Nl or No),
 *             tokens of 40 or more UTF-8 bytes dropped (they still take a position), then lowercased code point
 *             by code point (no final-sigma rule). No stop words, no splitting of long tokens.
 *   en_stem   default, then Snowball's English (Porter2) stemmer, as tantivy's rust-stemmers.
 *   raw       the whole value as one token.
 *   lowercase the whole value as one token, lowercased.
 *
 * Values of a multi-valued field are one position apart more than consecutive tokens, as in tantivy, so a phrase
 * never matches across two values.
 */
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.tartarus.snowball.ext.EnglishStemmer;

final class TantivyAnalysis {
    /** tantivy's RemoveLongFilter keeps tokens shorter than this many UTF-8 bytes. */
    static final int MAX_TOKEN_BYTES = 40;
    /** Extra positions between two values of one field: tantivy leaves one free (measured on 0.27). */
    static final int VALUE_POSITION_GAP = 1;
    static final List<String> TOKENIZERS = List.of("default", "en_stem", "raw", "lowercase");

    private TantivyAnalysis() {}

    /** One analyzer per text field (by its tokenizer); string and other fields are never analyzed. */
    static Analyzer perField(Map<String, String> tokenizerOfTextField) {
        Map<String, Analyzer> analyzers = new HashMap<>();
        tokenizerOfTextField.forEach((field, tokenizer) -> analyzers.put(field, new FieldAnalyzer(tokenizer)));
        return new PerFieldAnalyzerWrapper(new KeywordAnalyzer(), analyzers);
    }

    /** Rust's char::is_alphanumeric. */
    static boolean isAlphanumeric(int codePoint) {
        if (codePoint < 0x80) {
            return (codePoint >= 'a' && codePoint <= 'z') || (codePoint >= 'A' && codePoint <= 'Z')
                    || (codePoint >= '0' && codePoint <= '9');
        }
        if (Character.isAlphabetic(codePoint)) return true;
        int type = Character.getType(codePoint);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    /** Rust's char::to_lowercase applied to each code point: the full mapping, which differs from Java's simple
     *  one only for U+0130 (İ → i + combining dot above). */
    static String lowercase(CharSequence text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); ) {
            int codePoint = Character.codePointAt(text, i);
            i += Character.charCount(codePoint);
            if (codePoint == 0x130) out.append("i\u0307");
            else out.appendCodePoint(Character.toLowerCase(codePoint));
        }
        return out.toString();
    }

    /** The analyzer of one tantivy tokenizer name. */
    static final class FieldAnalyzer extends Analyzer {
        private final String tokenizer;

        FieldAnalyzer(String tokenizer) {
            if (!TOKENIZERS.contains(tokenizer)) {
                throw new IllegalArgumentException("tokenizer '" + tokenizer + "' has no Lucene counterpart here; "
                        + "known: " + String.join(", ", TOKENIZERS));
            }
            this.tokenizer = tokenizer;
        }

        @Override
        protected TokenStreamComponents createComponents(String field) {
            boolean words = tokenizer.equals("default") || tokenizer.equals("en_stem");
            Tokenizer source = words ? new SimpleTokenizer() : new KeywordTokenizer();
            TokenStream stream = tokenizer.equals("raw") ? source : new LowerCaser(source);
            if (tokenizer.equals("en_stem")) stream = new SnowballFilter(stream, new EnglishStemmer());
            return new TokenStreamComponents(source, stream);
        }

        /** What the query parser applies to wildcard and similar terms: the lowercasing, if any. */
        @Override
        protected TokenStream normalize(String field, TokenStream in) {
            return tokenizer.equals("raw") ? in : new LowerCaser(in);
        }

        @Override
        public int getPositionIncrementGap(String field) {
            return VALUE_POSITION_GAP;
        }
    }

    /** tantivy's SimpleTokenizer followed by RemoveLongFilter(40): a dropped token leaves its position empty. */
    static final class SimpleTokenizer extends Tokenizer {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
        private final PositionIncrementAttribute increment = addAttribute(PositionIncrementAttribute.class);
        private char[] text = new char[1024];
        private int length;
        private int cursor;

        @Override
        public void reset() throws IOException {
            super.reset();
            length = 0;
            cursor = 0;
            for (int n; (n = input.read(text, length, text.length - length)) != -1; ) {
                length += n;
                if (length == text.length) text = Arrays.copyOf(text, text.length * 2);
            }
        }

        @Override
        public boolean incrementToken() {
            clearAttributes();
            int dropped = 0;
            while (true) {
                while (cursor < length) {
                    int codePoint = Character.codePointAt(text, cursor, length);
                    if (isAlphanumeric(codePoint)) break;
                    cursor += Character.charCount(codePoint);
                }
                if (cursor == length) return false;
                int start = cursor;
                int bytes = 0;
                while (cursor < length) {
                    int codePoint = Character.codePointAt(text, cursor, length);
                    if (!isAlphanumeric(codePoint)) break;
                    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
                    cursor += Character.charCount(codePoint);
                }
                if (bytes >= MAX_TOKEN_BYTES) {
                    dropped++;
                    continue;
                }
                term.copyBuffer(text, start, cursor - start);
                offset.setOffset(correctOffset(start), correctOffset(cursor));
                increment.setPositionIncrement(1 + dropped);
                return true;
            }
        }

        @Override
        public void end() throws IOException {
            super.end();
            int end = correctOffset(length);
            offset.setOffset(end, end);
        }
    }

    /** tantivy's LowerCaser: ASCII in place, anything else code point by code point (see lowercase). */
    static final class LowerCaser extends TokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

        LowerCaser(TokenStream in) {
            super(in);
        }

        @Override
        public boolean incrementToken() throws IOException {
            if (!input.incrementToken()) return false;
            char[] buffer = term.buffer();
            int length = term.length();
            for (int i = 0; i < length; i++) {
                char c = buffer[i];
                if (c >= 0x80) {
                    String lowered = lowercase(term);
                    term.setEmpty().append(lowered);
                    return true;
                }
                if (c >= 'A' && c <= 'Z') buffer[i] = (char) (c + ('a' - 'A'));
            }
            return true;
        }
    }
}
