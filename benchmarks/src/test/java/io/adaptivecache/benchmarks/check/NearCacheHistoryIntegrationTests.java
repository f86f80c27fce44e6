package io.adaptivecache.benchmarks.check;

import java.time.Duration;
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.redis.RedisTransport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker in CI: a short seeded run per server (near caches reading and writing a
 * few hot keys, plain writers racing them, faults injected), and no read may return a value that
 * was not current at some moment within {@code [start - bound, end]}. The long run is the
 * benchmark's {@code --goals near-check}.
 */
class NearCacheHistoryIntegrationTests {

    private static final long SEED = 26;

    static {
        try {
            RedisTransport.select(RedisTransport.NIO);
        }
        catch (IllegalStateException ex) {
            // Another test of this JVM chose Lettuce's transport first: any will do here.
        }
    }

    @Test
    void redisNearCachesServeNoValueStalerThanTheirBound() throws Exception {
        check(Backend.REDIS, Duration.ofSeconds(8));
    }

    @Test
    void memcachedStalenessBoundedNearCachesServeNoValueStalerThanTheirMaxStaleness() throws Exception {
        check(Backend.MEMCACHED, Duration.ofSeconds(8));
    }

    private static void check(Backend backend, Duration length) throws Exception {
        CheckRun.Settings defaults = CheckRun.Settings.of(backend, SEED, length, 0, 0, length);
        // Faults closer together than in the long run, so that the short run sees every kind (they come in shuffled rounds).
        CheckRun.Settings settings = new CheckRun.Settings(backend, SEED, defaults.keys(), defaults.instances(), defaults.readers(),
                defaults.plainWriters(), length, 0, 1, length.multipliedBy(3), length, Duration.ofMillis(150), Duration.ofMillis(400),
                defaults.readPause(), defaults.writePause(), defaults.heartbeat(), defaults.maxStaleness(), defaults.fillers());
        CheckRun.Outcome outcome = new CheckRun(settings, System.out::println).run();
        HistoryCheck.Result result = outcome.result();
        String found = result.summary() + "; faults " + outcome.faults() + "; first violations:\n"
                + result.examples().stream().map(Object::toString).collect(Collectors.joining("\n"));
        System.out.println(backend.label() + ": " + found);
        assertThat(result.reads()).as("reads checked").isGreaterThan(10_000);
        assertThat(outcome.faults().values().stream().mapToInt(Integer::intValue).sum()).as("faults injected").isPositive();
        assertThat(result.violations()).as(found).isZero();
        // Every fault the server takes came at least once, and only those count: a run waiting for a fault its server
        // cannot take (a tracking connection to kill on memcached) would run to its limit and never meet its targets.
        assertThat(outcome.targetsMet()).as("targets met: " + outcome.faults()).isTrue();
    }
}
