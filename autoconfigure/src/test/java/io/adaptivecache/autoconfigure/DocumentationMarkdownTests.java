package io.adaptivecache.autoconfigure;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README.md and every docs/**&#47;*.md must render as written: a code fence closed by a line with
 * text after it (CommonMark reads that line as code, so the rest of the page renders as code) or a
 * fence never closed fails here, and so does a relative link or image whose file does not exist, or
 * whose {@code #fragment} names no heading of the target page. Links to other sites are not followed.
 */
class DocumentationMarkdownTests {

    /** An opening or closing fence: up to three spaces (more inside list items), then three or more ` or ~. */
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})(.*)$");

    /** {@code [text](target)} or {@code ![alt](target "title")}; one level of nested brackets in the text. */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern INLINE_CODE = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\w\\- ]", Pattern.UNICODE_CHARACTER_CLASS);

    @Test
    void everyPageClosesItsCodeFencesAndLinksToFilesThatExist() throws IOException, URISyntaxException {
        Path root = repositoryRoot();
        List<Path> pages = pages(root);
        assertThat(pages).as("README.md and docs/**/*.md under " + root).hasSizeGreaterThan(5);
        List<String> problems = new ArrayList<>();
        for (Path page : pages) {
            String where = root.relativize(page).toString();
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            fenceProblems(lines).forEach(problem -> problems.add(where + ":" + problem));
            linkProblems(page, lines).forEach(problem -> problems.add(where + ":" + problem));
        }
        assertThat(problems).as("Markdown that does not render as written, or links to nothing").isEmpty();
    }

    @Test
    void aFenceClosedWithTextAfterItOrNeverClosedIsFound() {
        // The case that broke the README: the closing fence carries the next paragraph's first words.
        assertThat(fenceProblems(List.of("```java", "int a;", "``` Every setting has IDE completion", "text")))
                .containsExactly("3: a code fence is closed with text after it (\"``` Every setting has IDE completion\"):"
                        + " the rest of the page renders as code", "1: a code fence opened here is never closed");
        assertThat(fenceProblems(List.of("```yaml", "a: 1"))).containsExactly("1: a code fence opened here is never closed");
        // Well-formed: a longer fence may hold shorter ones, a tilde fence backticks, indentation inside lists.
        assertThat(fenceProblems(List.of("````md", "```java", "x", "```", "````", "~~~", "```", "~~~", "- item",
                "  ```bash", "  ls", "  ```", "```  "))).containsExactly("13: a code fence opened here is never closed");
        assertThat(fenceProblems(List.of("```java", "x", "```   ", "text"))).isEmpty();
    }

    @Test
    void aLinkToAMissingFileOrHeadingIsFound(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("other.md"), "# Other page\n\n## The near cache, read-heavy (100 B)\n");
        Files.createDirectories(dir.resolve("images"));
        Files.writeString(dir.resolve("images/live.png"), "png");
        List<String> lines = List.of(
                "[fine](other.md) and [anchor](other.md#the-near-cache-read-heavy-100-b) ![img](images/live.png)",
                "[gone](runs/2026-11-22-100B/results.md) ![missing](images/dead.png) [bad anchor](other.md#nothing)",
                "[site](https://example.com/x.md) `[in code](nowhere.md)` [here](#local)",
                "```", "[in a block](nowhere.md)", "```",
                "## Local");
        Path page = Files.write(dir.resolve("page.md"), lines);
        assertThat(linkProblems(page, lines)).containsExactly(
                "2: runs/2026-11-22-100B/results.md: no such file",
                "2: images/dead.png: no such file",
                "2: other.md#nothing: no heading with that anchor");
    }

    /** Each fence that closes with text after it, and each fence never closed, as "line: what". */
    static List<String> fenceProblems(List<String> lines) {
        List<String> problems = new ArrayList<>();
        code(lines, problems);
        return problems;
    }

    /**
     * Which lines are code (a fence or inside one), read as CommonMark does: a fence closes on a run
     * of its own character at least as long as its opening with nothing but spaces after it. A line
     * that would close it but has text after it stays code, and is reported, as is a fence never closed.
     */
    private static boolean[] code(List<String> lines, List<String> problems) {
        boolean[] code = new boolean[lines.size()];
        String open = null;
        int openedAt = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            code[i] = open != null;
            if (!fence.matches()) {
                continue;
            }
            String run = fence.group(1);
            String rest = fence.group(2);
            if (open == null) {
                if (run.charAt(0) == '`' && rest.contains("`")) {
                    continue; // inline code such as ```a``` at the start of a line, not a fence
                }
                open = run;
                openedAt = i + 1;
                code[i] = true;
            }
            else if (run.charAt(0) == open.charAt(0) && run.length() >= open.length()) {
                if (rest.isBlank()) {
                    open = null;
                }
                else {
                    // CommonMark reads this line as code and keeps the block open.
                    problems.add((i + 1) + ": a code fence is closed with text after it (\"" + lines.get(i).strip()
                            + "\"): the rest of the page renders as code");
                }
            }
        }
        if (open != null) {
            problems.add(openedAt + ": a code fence opened here is never closed");
        }
        return code;
    }

    /** Each relative link or image of the page whose file, or whose heading for a #fragment, does not exist. */
    static List<String> linkProblems(Path page, List<String> lines) {
        List<String> problems = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        boolean[] code = code(lines, new ArrayList<>());
        for (int i = 0; i < lines.size(); i++) {
            if (code[i]) {
                continue;
            }
            Matcher link = LINK.matcher(INLINE_CODE.matcher(lines.get(i)).replaceAll(""));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
                    continue; // https:, mailto: and the like
                }
                int hash = target.indexOf('#');
                String file = (hash < 0) ? target : target.substring(0, hash);
                String fragment = (hash < 0) ? "" : target.substring(hash + 1);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    problems.add((i + 1) + ": " + target + ": no such file");
                }
                else if (!fragment.isEmpty() && resolved.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(resolved, DocumentationMarkdownTests::anchorsOf).contains(fragment)) {
                    problems.add((i + 1) + ": " + target + ": no heading with that anchor");
                }
            }
        }
        return problems;
    }

    /**
     * The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens,
     * a repeated heading numbered -1, -2.
     */
    private static Set<String> anchorsOf(Path page) {
        List<String> lines;
        try {
            lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new IllegalStateException("cannot read " + page, ex);
        }
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean[] code = code(lines, new ArrayList<>());
        for (int i = 0; i < lines.size(); i++) {
            Matcher heading = HEADING.matcher(lines.get(i));
            if (code[i] || !heading.matches()) {
                continue;
            }
            String text = NOT_IN_ANCHOR.matcher(heading.group(1).toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
            int count = seen.merge(text, 1, Integer::sum) - 1;
            anchors.add((count == 0) ? text : text + "-" + count);
        }
        return anchors;
    }
    private static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /**
     * The repository's top directory: the nearest directory above this test's classes (and failing
     * that, above the working directory) that holds the Maven wrapper, README.md and docs/, so the
     * test finds the pages whether Maven runs it from the module or from the top.
     */
    private static Path repositoryRoot() throws URISyntaxException {
        Path classes = Path.of(DocumentationMarkdownTests.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (Path start : List.of(classes, Path.of("").toAbsolutePath())) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isRegularFile(dir.resolve("README.md"))
                        && Files.isDirectory(dir.resolve("docs"))) {
                    return dir;
                }
            }
        }
        throw new IllegalStateException("no directory with mvnw, README.md and docs/ above " + classes);
    }
}
