package io.adaptivecache.benchmarks.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

import com.sun.net.httpserver.HttpServer;
import io.adaptivecache.benchmarks.http.app.Item;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * wrk with the benchmark's script against a small HTTP server of the JDK's: what the script asks
 * for and what the harness reads back. Skipped where wrk is not installed.
 */
class WrkIntegrationTests {

    private HttpServer server;

    private final Set<Integer> ids = ConcurrentHashMap.newKeySet();

    private final AtomicLong answered = new AtomicLong();

    @AfterEach
    void stop() {
        if (this.server != null) {
            this.server.stop(0);
        }
    }

    @Test
    void asksForItemsAcrossTheKeySpaceAndReadsWhatWrkMeasured(@TempDir Path out) throws IOException {
        assumeTrue(Wrk.find(System.getenv("PATH")).isPresent(), "wrk is not installed");
        int port = serve(id -> true);

        WrkResult result = Wrk.locate(out, Duration.ofSeconds(5)).run(port, 4, Duration.ofSeconds(1), 1);

        assertThat(result.requests()).isPositive();
        assertThat(result.errors()).isZero();
        // The server may answer a few requests whose responses wrk no longer counts as the run ends.
        assertThat(this.answered.get()).isGreaterThanOrEqualTo(result.requests());
        assertThat(result.durationMicros()).isBetween(900_000L, 3_000_000L);
        assertThat(result.p50Micros()).isPositive().isLessThanOrEqualTo(result.p99Micros());
        assertThat(this.ids).allMatch(id -> id >= 0 && id < Item.KEYS);
        // Uniform draws over the key space, not one path nor a walk from 0.
        long expectedDistinct = Math.round(Item.KEYS * (1 - Math.exp(-(double) result.requests() / Item.KEYS)));
        assertThat(this.ids.size()).as("distinct ids of %d requests", result.requests())
                .isGreaterThanOrEqualTo((int) Math.min(expectedDistinct * 0.8, expectedDistinct - 5));
        assertThat(this.ids).anyMatch(id -> id >= Item.KEYS / 2);
    }

    @Test
    void answersOtherThanSuccessAreCountedAsErrors(@TempDir Path out) throws IOException {
        assumeTrue(Wrk.find(System.getenv("PATH")).isPresent(), "wrk is not installed");
        int port = serve(id -> id % 2 == 0);

        WrkResult result = Wrk.locate(out, Duration.ofSeconds(5)).run(port, 2, Duration.ofSeconds(1), 2);

        assertThat(result.statusErrors()).isPositive();
        assertThat(result.errors()).isEqualTo(result.statusErrors());
    }

    /** Answers {@code /items/{id}} with 200 where the predicate holds, 404 elsewhere; records each id. */
    private int serve(IntPredicate found) throws IOException {
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        this.server.setExecutor(Executors.newFixedThreadPool(4));
        this.server.createContext("/items/", exchange -> {
            int id = Integer.parseInt(exchange.getRequestURI().getPath().substring("/items/".length()));
            this.ids.add(id);
            this.answered.incrementAndGet();
            byte[] body = ("{\"id\":" + id + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(found.test(id) ? 200 : 404, body.length);
            try (OutputStream stream = exchange.getResponseBody()) {
                stream.write(body);
            }
        });
        this.server.start();
        return this.server.getAddress().getPort();
    }
}
