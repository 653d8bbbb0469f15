// Lucene's side of the scale study: index the corpus `tenure-eval scale --export` wrote, run
// its queries with the suite's query (spec C.2: canonical_name fuzzy x14, canonical phrase
// bigrams x14, aliases fuzzy x5, alias bigrams x14, under the user and active filters), time
// both, and check every answer against tenure-eval's, id for id and score for score (float32).
//
// Usage: java -cp <lucene-core.jar>:<lucene-analyzers-common.jar>:<classes> ScaleLucene DIR
// Prints one JSON object on stdout. Driven by scripts/lucene-side-by-side.sh.
//
// The index is the same design as tenure-eval's: two text fields (canonical_name, aliases)
// indexed with the whole_name analyzer, docs and freqs only, the multi-fields' bigram and
// phrase clauses searching the same fields (their statistics are identical, spec C.1); string
// fields for id, user, active, type, subtype and scope; in RAM (ByteBuffersDirectory), one
// indexing thread, the same 1 GiB writer budget; a merge policy that merges only adjacent
// segments, so that doc ids stay in corpus order (the tie rule both engines share).

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.charfilter.MappingCharFilter;
import org.apache.lucene.analysis.charfilter.NormalizeCharMap;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.shingle.ShingleFilter;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.store.ByteBuffersDirectory;

public class ScaleLucene {
    static final String SEP = "\u001f";

    static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) { b.append(c); continue; }
            char n = s.charAt(++i);
            switch (n) {
                case 't': b.append('\t'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 'u': b.append('\u001f'); break;
                default: b.append(n);
            }
        }
        return b.toString();
    }

    static List<String> list(String field) {
        List<String> out = new ArrayList<>();
        if (field.isEmpty()) return out;
        for (String item : field.split(SEP, -1)) out.add(unescape(item));
        return out;
    }

    // whole_name: `_` -> space, each [^,;|]+ run one token, lowercase, English possessive.
    static final Analyzer WHOLE_NAME = new Analyzer() {
        final NormalizeCharMap map;
        {
            NormalizeCharMap.Builder b = new NormalizeCharMap.Builder();
            b.add("_", " ");
            map = b.build();
        }
        @Override protected Reader initReader(String field, Reader reader) {
            return new MappingCharFilter(map, reader);
        }
        @Override protected TokenStreamComponents createComponents(String field) {
            Tokenizer t = new PatternTokenizer(Pattern.compile("[^,;|]+"), 0);
            return new TokenStreamComponents(t, new EnglishPossessiveFilter(new LowerCaseFilter(t)));
        }
    };

    // aliases_light, optionally followed by the stopword filter and 2-2 shingles without unigrams.
    static Analyzer light(boolean stop, boolean shingle) {
        CharArraySet stops = new CharArraySet(Arrays.asList("a", "an", "the", "and", "or", "in",
            "of", "to", "for", "with", "our", "my", "we", "i", "on", "at", "by", "up", "their",
            "its", "is", "are", "was", "be", "that", "this", "how", "what", "does"), false);
        return new Analyzer() {
            @Override protected TokenStreamComponents createComponents(String field) {
                Tokenizer t = new WhitespaceTokenizer();
                TokenStream s = new EnglishPossessiveFilter(new LowerCaseFilter(t));
                if (stop) s = new StopFilter(s, stops);
                if (shingle) {
                    ShingleFilter sh = new ShingleFilter(s, 2, 2);
                    sh.setOutputUnigrams(false);
                    s = sh;
                }
                return new TokenStreamComponents(t, s);
            }
        };
    }

    static final Analyzer STANDARD = new StandardAnalyzer(CharArraySet.EMPTY_SET);
    static final Analyzer ALIASES_LIGHT = light(false, false);
    static final Analyzer ALIAS_SEARCH = light(false, true);
    static final Analyzer CANONICAL_QUERY = light(true, true);

    static List<String> tokens(Analyzer a, String field, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = a.tokenStream(field, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) out.add(term.toString());
            ts.end();
        }
        return out;
    }

    // One `text` operator (mongot, matchCriteria any): a query per token, SHOULD, boosted.
    static Query clause(Analyzer a, String field, String text, boolean fuzzy, float boost)
            throws IOException {
        List<String> toks = tokens(a, field, text);
        if (toks.isEmpty()) return new MatchNoDocsQuery();
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        Query single = null;
        for (String tok : toks) {
            Term t = new Term(field, tok);
            single = fuzzy ? new FuzzyQuery(t, 1, 2, 50, true) : new TermQuery(t);
            b.add(single, BooleanClause.Occur.SHOULD);
        }
        return new BoostQuery(toks.size() == 1 ? single : b.build(), boost);
    }

    static Query query(String user, String text) throws IOException {
        return query(user, text, Collections.emptyList(), Collections.emptyList());
    }

    // The scope filter (HEAD: scope in the request's list, when it has one) and the excluded ids
    // (HEAD: the pinned facts) of a suite case's search.
    static Query query(String user, String text, List<String> scopes, List<String> excluded)
            throws IOException {
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        any.add(clause(STANDARD, "canonical_name", text, true, 14f), BooleanClause.Occur.SHOULD);
        any.add(clause(CANONICAL_QUERY, "canonical_name", text, false, 14f), BooleanClause.Occur.SHOULD);
        any.add(clause(ALIASES_LIGHT, "aliases", text, true, 5f), BooleanClause.Occur.SHOULD);
        any.add(clause(ALIAS_SEARCH, "aliases", text, false, 14f), BooleanClause.Occur.SHOULD);
        any.setMinimumNumberShouldMatch(1);
        BooleanQuery.Builder q = new BooleanQuery.Builder();
        q.add(any.build(), BooleanClause.Occur.MUST);
        q.add(new TermQuery(new Term("user_id", user)), BooleanClause.Occur.FILTER);
        q.add(new TermQuery(new Term("active", "1")), BooleanClause.Occur.FILTER);
        q.add(new TermQuery(new Term("type", "open_question")), BooleanClause.Occur.MUST_NOT);
        q.add(new TermQuery(new Term("subtype", "expertise")), BooleanClause.Occur.MUST_NOT);
        if (!scopes.isEmpty()) {
            BooleanQuery.Builder in = new BooleanQuery.Builder();
            for (String s : scopes) in.add(new TermQuery(new Term("scope", s)), BooleanClause.Occur.SHOULD);
            q.add(in.build(), BooleanClause.Occur.FILTER);
        }
        for (String id : excluded) {
            q.add(new TermQuery(new Term("id", id)), BooleanClause.Occur.MUST_NOT);
        }
        return q.build();
    }

    static double percentile(double[] sorted, double q) {
        // Nearest rank, as tenure-eval's summary computes it.
        if (sorted.length == 0) return 0; // no generated beliefs, no queries
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    static double peakRssMib() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return -1;
    }

    // Top `limit` at a score of 3 or more, as `id score` strings.
    static List<String> answer(IndexSearcher searcher, String[] ids, Query q, int limit)
            throws IOException {
        List<String> out = new ArrayList<>();
        for (ScoreDoc sd : searcher.search(q, limit).scoreDocs) {
            if (sd.score >= 3f) out.add(ids[sd.doc] + " " + sd.score);
        }
        return out;
    }

    // tenure-eval's answer in a line's third column, in the same form.
    static List<String> ours(String column) {
        List<String> out = new ArrayList<>();
        for (String pair : list(column)) {
            String[] p = pair.split(" ");
            out.add(p[0] + " " + Float.parseFloat(p[1]));
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        List<String[]> corpus = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(dir.resolve("corpus.tsv"), StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) corpus.add(line.split("\t", -1));
        }
        List<String[]> queries = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(dir.resolve("queries.tsv"), StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) queries.add(line.split("\t", -1));
        }

        FieldType text = new FieldType();
        text.setTokenized(true);
        text.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        text.freeze();
        long start = System.nanoTime();
        ByteBuffersDirectory store = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(WHOLE_NAME);
        config.setRAMBufferSizeMB(1024);
        config.setMergePolicy(new LogByteSizeMergePolicy());
        config.setMergeScheduler(new SerialMergeScheduler());
        IndexWriter writer = new IndexWriter(store, config);
        String[] ids = new String[corpus.size()];
        for (int i = 0; i < corpus.size(); i++) {
            String[] f = corpus.get(i);
            Document d = new Document();
            ids[i] = unescape(f[0]);
            d.add(new StringField("id", ids[i], Field.Store.NO));
            d.add(new StringField("user_id", unescape(f[1]), Field.Store.NO));
            d.add(new StringField("type", f[2], Field.Store.NO));
            if (!f[3].isEmpty()) d.add(new StringField("subtype", unescape(f[3]), Field.Store.NO));
            if (f[4].equals("1")) d.add(new StringField("active", "1", Field.Store.NO));
            for (String s : list(f[5])) d.add(new StringField("scope", s, Field.Store.NO));
            d.add(new Field("canonical_name", unescape(f[6]), text));
            for (String a : list(f[7])) d.add(new Field("aliases", a, text));
            writer.addDocument(d);
        }
        writer.commit();
        DirectoryReader reader = DirectoryReader.open(writer);
        IndexSearcher searcher = new IndexSearcher(reader);
        double buildMs = (System.nanoTime() - start) / 1e6;
        int segments = reader.leaves().size();
        corpus = null;

        // Warm-up: every query five times (the JIT), then each timed once.
        int n = queries.size();
        for (int pass = 0; pass < 5; pass++) {
            for (String[] q : queries) searcher.search(query(unescape(q[0]), unescape(q[1])), 10);
        }
        double[] times = new double[n];
        List<List<String>> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String[] q = queries.get(i);
            long t0 = System.nanoTime();
            List<String> answer = answer(searcher, ids, query(unescape(q[0]), unescape(q[1])), 10);
            times[i] = (System.nanoTime() - t0) / 1e3;
            answers.add(answer);
        }
        int equal = 0;
        String firstDiff = null;
        for (int i = 0; i < n; i++) {
            List<String> ours = ours(queries.get(i)[2]);
            if (ours.equals(answers.get(i))) {
                equal++;
            } else if (firstDiff == null) {
                firstDiff = "query " + i + " " + unescape(queries.get(i)[1]) + ": tenure-eval "
                    + ours + ", Lucene " + answers.get(i);
            }
        }
        // The suite's own cases' searches in the grown store (scope filters, excluded ids).
        int cases = 0, sameCases = 0;
        Path casesFile = dir.resolve("cases.tsv");
        if (Files.exists(casesFile)) {
            for (String line : Files.readAllLines(casesFile, StandardCharsets.UTF_8)) {
                String[] c = line.split("\t", -1);
                cases++;
                Query q = query(unescape(c[0]), unescape(c[1]), list(c[3]), list(c[4]));
                List<String> lucene = answer(searcher, ids, q, Integer.parseInt(c[5]));
                if (ours(c[2]).equals(lucene)) {
                    sameCases++;
                } else if (firstDiff == null) {
                    firstDiff = "case search " + unescape(c[1]) + ": tenure-eval " + ours(c[2])
                        + ", Lucene " + lucene;
                }
            }
        }
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT,
            "{\"lucene\": \"%s\", \"beliefs\": %d, \"segments\": %d, \"buildMs\": %.1f, \"queries\": %d, "
            + "\"searchP50Us\": %.1f, \"searchP95Us\": %.1f, \"peakRssMib\": %.0f, "
            + "\"sameAnswers\": %d, \"caseSearches\": %d, \"sameCaseAnswers\": %d, "
            + "\"firstDifference\": %s}%n",
            org.apache.lucene.util.Version.LATEST, ids.length, segments, buildMs, n, percentile(sorted, 0.5), percentile(sorted, 0.95),
            peakRssMib(), equal, cases, sameCases, firstDiff == null ? "null" : "\"" + firstDiff.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        reader.close();
        writer.close();
    }
}
