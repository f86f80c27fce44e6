package io.adaptivecache.autoconfigure.cache;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.autoconfigure.ContextRunners;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An asynchronous {@code @Cacheable} method (one returning a {@code CompletableFuture}) that
 * blocks before returning, called on a miss. Spring runs the method, and then the cache's put, on
 * the thread that completed the cache's read: that must not be a driver's I/O thread, or every
 * other call on its connection waits behind the method (and a synchronous put there waits for a
 * reply only that thread could read). On both backends and each strategy shape, with a template
 * timeout shorter than the method's block: an unrelated read made while the method blocks
 * answers, and the value reaches the server.
 */
class AsyncCacheableOffTheIoThreadsTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final String keyPrefix = UUID.randomUUID().toString().substring(0, 8) + ":";

    private final ApplicationContextRunner contextRunner = ContextRunners
            .onBothServers(redis, memcached, AdaptiveCacheSpringCacheAutoConfiguration.class)
            .withUserConfiguration(AsyncCachingConfiguration.class)
            .withPropertyValues("adaptive-cache.cache.key-prefix=" + this.keyPrefix, "adaptive-cache.redis.timeout=500ms",
                    "adaptive-cache.memcached.operation-timeout=500ms");

    static Stream<Arguments> backendsAndStrategies() {
        return Stream.of("redis", "memcached")
                .flatMap(backend -> Stream.of("single", "multi", "pooled").map(strategy -> Arguments.of(backend, strategy)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("backendsAndStrategies")
    void aBlockingAsyncMethodShouldNeitherStallOtherReadsNorLoseItsValue(String backend, String strategy) {
        this.contextRunner.withPropertyValues("adaptive-cache.cache.backend=" + backend,
                "adaptive-cache." + backend + ".strategy.type=" + strategy).run(context -> {
                    CacheTemplate template = context.getBean(backend + "CacheTemplate", CacheTemplate.class);
                    SlowService service = context.getBean(SlowService.class);
                    String unrelated = this.keyPrefix + "unrelated";
                    byte[] stored = { 4, 2 };
                    template.set(unrelated, stored, Duration.ofMinutes(1));

                    CompletableFuture<String> call = service.find("k1");
                    assertThat(service.awaitStarted()).as("the method ran").isTrue();
                    byte[] read;
                    try {
                        // The method is blocked now, on the thread that completed the cache's read.
                        read = template.get(unrelated);
                    }
                    finally {
                        service.release();
                    }

                    assertThat(read).as("an unrelated read while the method blocks").isEqualTo(stored);
                    assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("value of k1");
                    String storeKey = this.keyPrefix + "slow:0:k1";
                    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                            "redis".equals(backend) ? redis.server().command("GET", storeKey) : memcachedGet(storeKey))
                            .as("what the server holds under " + storeKey).isNotNull());
                    assertThat(service.calls()).as("calls that reached the method").isEqualTo(1);
                    assertThat(service.find("k1").get(5, TimeUnit.SECONDS)).isEqualTo("value of k1");
                    assertThat(service.calls()).as("the second call is a hit").isEqualTo(1);
                });
    }

    /** The value line of memcached's own answer to {@code get}, or {@code null} if it holds nothing under the key. */
    private static String memcachedGet(String key) throws IOException {
        try (Socket socket = new Socket(ServerProcess.HOST, memcached.server().port())) {
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            String line = in.readLine();
            return line != null && line.startsWith("VALUE ") ? line : null;
        }
    }

    /** A service whose asynchronous method blocks its thread until released (at most 1 s) before returning. */
    public static class SlowService {

        private final CountDownLatch started = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicInteger calls = new AtomicInteger();

        // Methods, not fields: the bean is a caching proxy, whose own fields are not this one's.

        public boolean awaitStarted() throws InterruptedException {
            return this.started.await(5, TimeUnit.SECONDS);
        }

        public void release() {
            this.release.countDown();
        }

        public int calls() {
            return this.calls.get();
        }

        @Cacheable("slow")
        public CompletableFuture<String> find(String id) throws InterruptedException {
            this.calls.incrementAndGet();
            this.started.countDown();
            // Blocking code in a method that returns a future: a mistake, but one that must cost only its own thread.
            this.release.await(1, TimeUnit.SECONDS);
            return CompletableFuture.completedFuture("value of " + id);
        }
    }

    /** Caching on, and the cached service as a bean of its own. */
    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    @Import(SlowService.class)
    static class AsyncCachingConfiguration {
    }
}
