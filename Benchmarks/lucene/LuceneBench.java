/*
 * Lucene's side of the benchmark (Benchmarks/compare.py, engine "lucene"): indexes the corpus, opens the index,
 * times the query list, and writes a result JSON of the same shape as the Python workers' (bench/tantivy_run.py).
 *
 * What it measures:
 *   indexing  one thread, IndexWriterConfig.setRAMBufferSizeMB(the job's memory budget, in the same bytes as the
 *             other engines'), MMapDirectory; timed from opening the corpus to IndexWriter.close() (commit, and
 *             the merges it waits for), reading, gunzipping and parsing the JSONL (Jackson) included; peak RSS is
 *             the JVM's VmHWM right after.
 *   open      a fresh DirectoryReader.open + IndexSearcher, max(5, min(repeat, 20)) times; first and median ms.
 *   queries   one IndexSearcher with no executor (one thread) and no query cache (tantivy and Loupe cache no
 *             results between queries). After `warmup` passes over the list (the JIT), `repeat` interleaved
 *             passes, each query's three modes back to back, timed with System.nanoTime:
 *               top-10   search(q, TopScoreDocCollector.createSharedManager(10, null, Integer.MAX_VALUE)), an
 *                        exact hit count, then the stored id of each hit via searcher.storedFields()
 *               pruned   search(q, 10): totalHitsThreshold 1,000, so block-max pruning; no stored fields read
 *               count    searcher.count(q)
 *             The binding floor is the same three modes on an absent term, `floor_samples` times each.
 *   Per query the median over the timed passes (the mean of the middle two for an even count), as measure.py.
 *
 * Data: the job JSON compare.py writes (bench/lucene_run.py): corpus (JSONL, optionally gzipped), schema (the
 * normalized dict of bench/inputs.load_schema), queries ([class, text] pairs), repeat, warmup, limit_docs,
 * memory_mb, index_dir, floor_query, floor_samples.
 *
 *   java -cp anserini-1.7.1-fatjar.jar:CLASSES LuceneBench JOB.json RESULT.json
 * (bench/lucene_run.py fetches the jar, compiles this folder with javac and runs it.)
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.Version;

public final class LuceneBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Timing modes, in the order they run and as the result's per-query keys name them. */
    private static final String[] MODES = {
        "latency_us_median", "top10_pruned_nofetch_latency_us_median", "count_latency_us_median"};
    private static final String[] FLOOR_KEYS = {"top10", "pruned", "count"};

    private final JsonNode job;
    private final BenchSchema schema;
    private final Path indexPath;
    private final int repeat;
    /** Folds every result the timed calls return, so the JIT cannot drop a call whose result goes unused. */
    private long sink;

    private LuceneBench(JsonNode job) {
        this.job = job;
        this.schema = new BenchSchema(job.get("schema"));
        this.indexPath = Path.of(job.get("index_dir").asText());
        this.repeat = job.get("repeat").asInt();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LuceneBench JOB.json RESULT.json");
            System.exit(64);
        }
        LuceneBench bench = new LuceneBench(JSON.readTree(Path.of(args[0]).toFile()));
        Map<String, Object> result = bench.run();
        JSON.writeValue(Path.of(args[1]).toFile(), result);
    }

    private Map<String, Object> run() throws IOException {
        Map<String, Object> indexed = index();
        System.err.printf("lucene: indexed %s docs in %s s%n", indexed.get("docs"), indexed.get("index_s"));
        Map<String, Object> opened = openTimes();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("engine", "lucene");
        result.put("version", Version.LATEST.toString());
        result.put("config", config());
        result.put("index", indexed);
        result.put("open", opened);
        try (Directory directory = MMapDirectory.open(indexPath); DirectoryReader reader = DirectoryReader.open(directory)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            TantivyQueryParser parser = new TantivyQueryParser(schema);
            result.put("queries", timedQueries(searcher, parser));
            result.put("floor_us", floor(searcher, parser));
        }
        result.put("checksum", sink);
        return result;
    }

    private Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ram_buffer_mb", ramBufferMB());
        config.put("threads", 1);
        config.put("repeat", repeat);
        config.put("warmup_passes", job.get("warmup").asInt());
        config.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        config.put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20);
        config.put("directory", "MMapDirectory");
        config.put("similarity", "BM25Similarity (Lucene's default; no (1+k1) factor, N = docs with the field)");
        config.put("query_cache", "none (IndexSearcher.setQueryCache(null))");
        config.put("top10", "search(q, TopScoreDocCollector.createSharedManager(10, null, Integer.MAX_VALUE)) + "
                + "storedFields().document(doc) per hit");
        config.put("pruned", "search(q, 10): totalHitsThreshold 1000, no stored fields");
        config.put("count", "searcher.count(q)");
        config.put("timed", "corpus open → IndexWriter.close() (commit + merges); reads, gunzips and parses the file");
        config.put("peak_rss", "VmHWM of the JVM");
        config.put("default_fields", schema.defaultFields);
        return config;
    }

    /** The job's memory budget (MB of 10^6 bytes, as every engine reads it) in Lucene's MiB. */
    private double ramBufferMB() {
        return job.get("memory_mb").asInt() * 1_000_000.0 / (1 << 20);
    }

    // ------------------------------------------------------------------ indexing

    private Map<String, Object> index() throws IOException {
        JsonNode limitNode = job.get("limit_docs");
        long limit = limitNode == null || limitNode.isNull() ? Long.MAX_VALUE : limitNode.asLong();
        long docs = 0, failed = 0;
        long start = System.nanoTime();
        CorpusLines lines = new CorpusLines(job.get("corpus").asText());
        IndexWriterConfig config = new IndexWriterConfig(schema.analyzer)
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                .setRAMBufferSizeMB(ramBufferMB());
        try (lines; Directory directory = MMapDirectory.open(indexPath);
                IndexWriter writer = new IndexWriter(directory, config)) {
            while (docs + failed < limit && lines.next()) {
                Document doc;
                try {
                    doc = schema.document(JSON.readTree(lines.buffer(), lines.offset(), lines.length()));
                } catch (IOException | BenchSchema.BadValue e) {
                    failed++;
                    continue;
                }
                try {
                    writer.addDocument(doc);
                    docs++;
                } catch (IllegalArgumentException e) {  // a term over Lucene's 32,766-byte limit, say
                    failed++;
                }
            }
            writer.commit();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("docs", docs);
        record.put("docs_failed", failed);
        record.put("input_bytes", lines.bytes());
        record.put("index_s", round(seconds, 4));
        record.put("docs_per_s", round(docs / seconds, 1));
        record.put("mb_per_s", round(lines.bytes() / 1e6 / seconds, 3));
        record.put("size_bytes", directorySize());
        record.put("peak_rss_mb", round(peakRSSMB(), 1));
        try (Directory directory = MMapDirectory.open(indexPath); DirectoryReader reader = DirectoryReader.open(directory)) {
            record.put("segments", reader.leaves().size());
        }
        return record;
    }

    private long directorySize() throws IOException {
        try (Stream<Path> files = Files.walk(indexPath)) {
            return files.filter(Files::isRegularFile).mapToLong(path -> path.toFile().length()).sum();
        }
    }

    /** VmHWM from /proc/self/status: the peak resident set of this JVM. */
    private static double peakRSSMB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
        return 0;
    }

    /** The corpus's non-blank lines as bytes, counted with their newline as bench/inputs.corpus_lines counts
     *  them. After next() returns true, the line is buffer()[offset(), offset() + length()), without the newline. */
    private static final class CorpusLines implements AutoCloseable {
        private final InputStream in;
        private byte[] buffer = new byte[1 << 16];
        private int start, end, lineStart, lineLength;
        private long bytes;
        private boolean eof;

        CorpusLines(String path) throws IOException {
            InputStream raw = new BufferedInputStream(new FileInputStream(path), 1 << 16);
            in = path.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
        }

        boolean next() throws IOException {
            while (true) {
                int newline = -1;
                for (int i = start; i < end; i++) {
                    if (buffer[i] == '\n') {
                        newline = i;
                        break;
                    }
                }
                if (newline < 0 && !eof) {
                    fill();
                    continue;
                }
                if (newline < 0 && start == end) return false;
                int lineEnd = newline < 0 ? end : newline;
                lineStart = start;
                lineLength = lineEnd - lineStart;
                start = newline < 0 ? end : newline + 1;
                if (isBlank(lineStart, lineEnd)) continue;
                bytes += start - lineStart;
                return true;
            }
        }

        byte[] buffer() {
            return buffer;
        }

        int offset() {
            return lineStart;
        }

        int length() {
            return lineLength;
        }

        long bytes() {
            return bytes;
        }

        private boolean isBlank(int from, int to) {
            for (int i = from; i < to; i++) {
                byte b = buffer[i];
                if (b != ' ' && b != '\t' && b != '\r' && b != '\f' && b != 0x0b) return false;
            }
            return true;
        }

        /** Moves the unread bytes to the front and reads more, growing the buffer for a line longer than it. */
        private void fill() throws IOException {
            int unread = end - start;
            if (unread == buffer.length) buffer = Arrays.copyOf(buffer, buffer.length * 2);
            System.arraycopy(buffer, start, buffer, 0, unread);
            start = 0;
            end = unread;
            int n = in.read(buffer, end, buffer.length - end);
            if (n < 0) eof = true;
            else end += n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    // ------------------------------------------------------------------ opening

    private Map<String, Object> openTimes() throws IOException {
        int runs = Math.max(5, Math.min(repeat, 20));
        double[] times = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            Directory directory = MMapDirectory.open(indexPath);
            DirectoryReader reader = DirectoryReader.open(directory);
            sink += new IndexSearcher(reader).getIndexReader().maxDoc();
            times[i] = (System.nanoTime() - start) / 1e6;
            reader.close();
            directory.close();
        }
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("first_ms", round(times[0], 3));
        record.put("median_ms", round(median(times.clone()), 3));
        record.put("repeat", runs);
        return record;
    }

    // ------------------------------------------------------------------ queries

    /** The three timed modes of one query; returns the exact-count top-10 for the first (untimed) pass. */
    private TopDocs runModes(IndexSearcher searcher, Query query, long[] nanos, String[] ids) throws IOException {
        long t0 = System.nanoTime();
        TopDocs top = searcher.search(query, TopScoreDocCollector.createSharedManager(10, null, Integer.MAX_VALUE));
        StoredFields stored = searcher.storedFields();
        for (int k = 0; k < top.scoreDocs.length; k++) ids[k] = idOf(stored.document(top.scoreDocs[k].doc));
        long t1 = System.nanoTime();
        TopDocs pruned = searcher.search(query, 10);
        long t2 = System.nanoTime();
        int count = searcher.count(query);
        long t3 = System.nanoTime();
        nanos[0] = t1 - t0;
        nanos[1] = t2 - t1;
        nanos[2] = t3 - t2;
        sink += pruned.scoreDocs.length + count;
        return top;
    }

    private String idOf(Document doc) {
        if (schema.idField == null) return null;
        IndexableField field = doc.getField(schema.idField);
        if (field == null) return null;
        return field.numericValue() != null ? field.numericValue().toString() : field.stringValue();
    }

    private List<Map<String, Object>> timedQueries(IndexSearcher searcher, TantivyQueryParser parser) {
        List<Map<String, Object>> records = new ArrayList<>();
        List<Query> queries = new ArrayList<>();
        for (JsonNode pair : job.get("queries")) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("query", pair.get(1).asText());
            record.put("class", pair.get(0).asText());
            record.put("status", "ok");
            record.put("error", null);
            Query query = null;
            try {
                query = parser.parse(pair.get(1).asText());
                record.put("lucene_query", query.toString());
            } catch (Exception e) {  // ParseException, or a RuntimeException from a query's constructor
                record.put("status", "error");
                record.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            records.add(record);
            queries.add(query);
        }
        int warmup = job.get("warmup").asInt();
        double[][][] samples = new double[queries.size()][MODES.length][repeat];
        long[] nanos = new long[MODES.length];
        String[] ids = new String[10];
        for (int pass = 0; pass < warmup + repeat; pass++) {
            for (int i = 0; i < queries.size(); i++) {
                Query query = queries.get(i);
                if (query == null) continue;
                try {
                    TopDocs top = runModes(searcher, query, nanos, ids);
                    if (pass == 0) {
                        Map<String, Object> record = records.get(i);
                        record.put("count", top.totalHits.value);
                        record.put("top10", Arrays.asList(Arrays.copyOf(ids, top.scoreDocs.length)));
                        List<Double> scores = new ArrayList<>();
                        for (ScoreDoc hit : top.scoreDocs) scores.add(round(hit.score, 6));
                        record.put("scores", scores);
                    }
                    if (pass >= warmup) {
                        for (int m = 0; m < MODES.length; m++) samples[i][m][pass - warmup] = nanos[m] / 1000.0;
                    }
                } catch (IOException | RuntimeException e) {
                    records.get(i).put("status", "error");
                    records.get(i).put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
                    queries.set(i, null);
                }
            }
            if (pass + 1 == warmup) System.err.printf("lucene: %d warm-up passes done%n", warmup);
        }
        for (int i = 0; i < queries.size(); i++) {
            Map<String, Object> record = records.get(i);
            boolean timed = queries.get(i) != null && repeat > 0;
            record.put("latency_us_min", timed ? round(Arrays.stream(samples[i][0]).min().orElse(0), 2) : null);
            record.put("repeats", timed ? repeat : 0);
            for (int m = 0; m < MODES.length; m++) record.put(MODES[m], timed ? round(median(samples[i][m]), 2) : null);
            record.putIfAbsent("count", null);
            record.putIfAbsent("top10", List.of());
            record.putIfAbsent("scores", List.of());
        }
        return records;
    }

    /** The binding floor: each mode's median µs on a query for a term no document holds. */
    private Map<String, Object> floor(IndexSearcher searcher, TantivyQueryParser parser) throws IOException {
        Query query;
        try {
            query = parser.parse(job.get("floor_query").asText());
        } catch (Exception e) {
            throw new IllegalArgumentException("floor query: " + e.getMessage(), e);
        }
        int samples = job.get("floor_samples").asInt();
        double[][] times = new double[MODES.length][samples];
        long[] nanos = new long[MODES.length];
        String[] ids = new String[10];
        for (int s = 0; s < samples; s++) {
            runModes(searcher, query, nanos, ids);
            for (int m = 0; m < MODES.length; m++) times[m][s] = nanos[m] / 1000.0;
        }
        Map<String, Object> floor = new LinkedHashMap<>();
        for (int m = 0; m < MODES.length; m++) floor.put(FLOOR_KEYS[m], round(median(times[m]), 2));
        return floor;
    }

    // ------------------------------------------------------------------ numbers

    /** statistics.median: the middle value, or the mean of the middle two (sorts `values` in place). */
    private static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        if (n == 0) return 0;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
