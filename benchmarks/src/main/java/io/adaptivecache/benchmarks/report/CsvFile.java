package io.adaptivecache.benchmarks.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An append-only CSV log of a run: a header line, then one line per measurement, each written
 * and flushed at once so that an interrupted run keeps its figures; and the reading of such a
 * file back. The cell log ({@link CsvLog}) and the slice log share it.
 */
public abstract class CsvFile implements AutoCloseable {

    private final Writer writer;

    /**
     * Creates the file and writes its header.
     * @param file the file
     * @param header the column names, comma-separated
     * @throws IOException if it cannot be written
     */
    protected CsvFile(Path file, String header) throws IOException {
        this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.writer.write(header + "\n");
        this.writer.flush();
    }

    /**
     * Appends one line and flushes it.
     * @param line the line, with its line end
     */
    protected final synchronized void appendLine(String line) {
        try {
            this.writer.write(line);
            this.writer.flush();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The data lines of such a file: all but the header, and no blank one.
     * @param file the file
     * @return its lines, in order
     * @throws IOException if it cannot be read
     */
    public static List<String> rows(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return lines.subList(1, lines.size()).stream().filter(line -> !line.isBlank()).toList();
    }

    @Override
    public void close() throws IOException {
        this.writer.close();
    }
}
