package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;

/**
 * What each adaptive target settled on before its slices, per workload, in {@code warm-ups.csv}
 * beside {@code slices.csv}, so that a report recomputed from the files still says it.
 */
final class WarmUps {

    static final String FILE = "warm-ups.csv";

    private WarmUps() {
    }

    static void append(Path directory, Workload workload, Map<String, String> settled) {
        try {
            Path file = directory.resolve(FILE);
            StringBuilder lines = new StringBuilder(Files.exists(file) ? "" : "backend,network,value_bytes,threads,target,settled,mix\n");
            settled.forEach((target, text) -> lines.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%s,%s%n",
                    workload.backend().name().toLowerCase(Locale.ROOT), workload.network().name().toLowerCase(Locale.ROOT),
                    workload.valueBytes(), workload.threads(), target, text.replace(',', ' '), workload.mix().slug())));
            Files.writeString(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static Map<Workload, Map<String, String>> read(Path file) throws IOException {
        Map<Workload, Map<String, String>> warmUps = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return warmUps;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", 7);
            if (f.length < 6) {
                continue;
            }
            Workload workload = new Workload(Backend.valueOf(f[0].toUpperCase(Locale.ROOT)), Network.valueOf(f[1].toUpperCase(Locale.ROOT)),
                    Integer.parseInt(f[2]), Integer.parseInt(f[3]), f.length > 6 ? Mix.of(f[6].trim()) : Mix.MIXED_UNIFORM);
            warmUps.computeIfAbsent(workload, any -> new LinkedHashMap<>()).put(f[4], f[5]);
        }
        return warmUps;
    }
}
