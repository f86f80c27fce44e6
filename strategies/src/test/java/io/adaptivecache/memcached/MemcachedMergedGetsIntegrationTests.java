package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gets that wait on a spymemcached connection go to the server as one request (on the binary
 * protocol by this project's connection, on text by spymemcached's own), and the stores waiting
 * beside them keep their own replies. The calls are made
 * to wait by a frozen server behind a write the socket cannot take (megabytes of values), so that
 * what is merged does not depend on how fast the I/O thread is; the server's own counters tell
 * what reached it.
 */
class MemcachedMergedGetsIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    /** Values written ahead of the calls while the server is frozen: more than the socket buffers on both ends hold. */
    private static final int BALLAST_VALUES = 24;
    private static final int BALLAST_BYTES = 900 * 1024;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @ParameterizedTest
    @EnumSource(MemcachedProtocol.class)
    void getsWaitingOnOneConnectionReachTheServerAsOneRequestAskingEachKeyOnce(MemcachedProtocol protocol) throws Exception {
        int callersOfOneKey = 64;
        int missingKeys = 16;
        try (ManagedCacheTemplate template = start(protocol)) {
            CacheOperations<String> cache = template.withCodec(ValueCodec.utf8());
            String hot = run + ":hot";
            cache.set(hot, "v", Duration.ofMinutes(5));
            long getsBefore = Long.parseLong(memcached.server().stat("cmd_get"));

            List<CompletableFuture<String>> hotReads = new ArrayList<>();
            List<CompletableFuture<String>> missingReads = new ArrayList<>();
            behindAFrozenServer(cache, () -> {
                for (int i = 0; i < callersOfOneKey; i++) {
                    hotReads.add(cache.getAsync(hot));
                    if (i < missingKeys) {
                        missingReads.add(cache.getAsync(run + ":missing:" + i));
                    }
                }
            });

            for (CompletableFuture<String> read : hotReads) {
                assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo("v");
            }
            for (CompletableFuture<String> read : missingReads) {
                assertThat(read.get(30, TimeUnit.SECONDS)).isNull();
            }
            long keysAsked = Long.parseLong(memcached.server().stat("cmd_get")) - getsBefore;
            // Sent one by one, the server is asked 80 times; merged, once per distinct key (17), and at most
            // once more if the first get went out alone.
            assertThat(keysAsked).as("keys the server was asked for, of %s gets", callersOfOneKey + missingKeys)
                    .isLessThanOrEqualTo(1 + missingKeys + 1);
        }
    }

    @ParameterizedTest
    @EnumSource(MemcachedProtocol.class)
    void storesWaitingBesideMergedGetsKeepTheirOwnReplies(MemcachedProtocol protocol) throws Exception {
        int rounds = 50;
        try (ManagedCacheTemplate template = start(protocol)) {
            CacheOperations<String> cache = template.withCodec(ValueCodec.utf8());
            for (int i = 0; i < rounds; i++) {
                cache.set(key("existing", i), "old", Duration.ofMinutes(5));
            }
            List<CompletableFuture<Boolean>> refusedAdds = new ArrayList<>();
            List<CompletableFuture<Boolean>> acceptedAdds = new ArrayList<>();
            List<CompletableFuture<Boolean>> refusedReplaces = new ArrayList<>();
            List<CompletableFuture<Boolean>> refusedDeletes = new ArrayList<>();
            List<List<CompletableFuture<String>>> reads = new ArrayList<>();
            behindAFrozenServer(cache, () -> {
                for (int i = 0; i < rounds; i++) {
                    // Refused stores first: spymemcached's own merged store stops reading its replies at the first refusal.
                    refusedAdds.add(cache.addAsync(key("existing", i), "new", Duration.ofMinutes(5)));
                    acceptedAdds.add(cache.addAsync(key("added", i), "added", Duration.ofMinutes(5)));
                    refusedReplaces.add(cache.replaceAsync(key("missing", i), "x", Duration.ofMinutes(5)));
                    refusedDeletes.add(cache.deleteAsync(key("missing", i)));
                    reads.add(List.of(cache.getAsync(key("existing", i)), cache.getAsync(key("added", i)),
                            cache.getAsync(key("missing", i))));
                }
            });

            for (int i = 0; i < rounds; i++) {
                assertThat(refusedAdds.get(i).get(30, TimeUnit.SECONDS)).as("add of an existing key").isFalse();
                assertThat(acceptedAdds.get(i).get(30, TimeUnit.SECONDS)).as("add of a new key").isTrue();
                assertThat(refusedReplaces.get(i).get(30, TimeUnit.SECONDS)).as("replace of a missing key").isFalse();
                assertThat(refusedDeletes.get(i).get(30, TimeUnit.SECONDS)).as("delete of a missing key").isFalse();
                assertThat(reads.get(i).get(0).get(30, TimeUnit.SECONDS)).isEqualTo("old");
                assertThat(reads.get(i).get(1).get(30, TimeUnit.SECONDS)).isEqualTo("added");
                assertThat(reads.get(i).get(2).get(30, TimeUnit.SECONDS)).isNull();
            }
            // The connection reads its replies in step afterwards.
            cache.set(key("after", 0), "after", Duration.ofMinutes(5));
            assertThat(cache.get(key("after", 0))).isEqualTo("after");
        }
    }

    /** One connection, and a timeout the frozen server cannot reach. */
    private static ManagedCacheTemplate start(MemcachedProtocol protocol) {
        return MemcachedCacheTemplates.builder().servers(memcached.addresses()).protocol(protocol).strategy(StrategySpec.single())
                .operationTimeout(Duration.ofSeconds(30)).start();
    }

    /**
     * Freezes the server, queues a write larger than the socket buffers on both ends hold, makes the
     * calls (which wait behind it on the connection's write queue) and thaws the server.
     */
    private void behindAFrozenServer(CacheOperations<String> cache, Runnable calls) throws Exception {
        String ballast = "b".repeat(BALLAST_BYTES);
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        memcached.server().freeze();
        try {
            for (int i = 0; i < BALLAST_VALUES; i++) {
                writes.add(cache.setAsync(run + ":ballast", ballast, Duration.ofMinutes(5)));
            }
            calls.run();
        }
        finally {
            memcached.server().thaw();
        }
        for (CompletableFuture<Void> write : writes) {
            write.get(30, TimeUnit.SECONDS);
        }
    }

    private String key(String kind, int i) {
        return run + ":" + kind + ":" + i;
    }
}
