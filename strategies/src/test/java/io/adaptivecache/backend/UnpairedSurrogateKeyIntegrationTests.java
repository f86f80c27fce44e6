package io.adaptivecache.backend;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A key with an unpaired surrogate has no UTF-8 form: the drivers would send {@code ?} in its
 * place, so that it would name another key on the server, and a near cache would never match the
 * server's report of it. Both backends refuse it before anything reaches a socket, and stay usable.
 */
class UnpairedSurrogateKeyIntegrationTests {

    private static final List<String> BAD_KEYS = List.of("lone-high-\uD800", "\uDC00-lone-low", "reversed-\uDC00\uD800");

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    /** Each backend with a template on this class's server of its kind, and the commands that server executed. */
    enum Backend {

        REDIS {
            @Override
            CacheTemplate start() {
                return RedisCacheTemplates.builder().uri(redis.uri()).name("surrogates").start();
            }

            @Override
            long executed() {
                return calls(redis.server(), "set") + calls(redis.server(), "get") + calls(redis.server(), "del")
                        + calls(redis.server(), "mget");
            }
        },

        MEMCACHED {
            @Override
            CacheTemplate start() {
                return MemcachedCacheTemplates.builder().servers(memcached.addresses()).name("surrogates").start();
            }

            @Override
            long executed() {
                return stat("cmd_set") + stat("cmd_get") + stat("delete_hits") + stat("delete_misses");
            }
        };

        abstract CacheTemplate start();

        abstract long executed();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Backend.class)
    void eachBackendShouldRefuseTheKeyAndExecuteNothing(Backend backend) {
        try (CacheTemplate template = backend.start()) {
            refusedAndUsable(template, backend::executed);
        }
    }

    private static void refusedAndUsable(CacheTemplate template, LongSupplier executed) {
        byte[] value = "v".getBytes(StandardCharsets.UTF_8);
        long before = executed.getAsLong();
        for (String key : BAD_KEYS) {
            assertThatThrownBy(() -> template.set(key, value, Duration.ZERO)).isInstanceOf(InvalidCacheInputException.class)
                    .hasMessageContaining("unpaired surrogate");
            assertThatThrownBy(() -> template.get(key)).isInstanceOf(InvalidCacheInputException.class)
                    .hasMessageContaining("unpaired surrogate");
            assertThatThrownBy(() -> template.delete(key)).isInstanceOf(InvalidCacheInputException.class);
            assertThatThrownBy(() -> template.getAll(List.of("good", key))).isInstanceOf(InvalidCacheInputException.class);
        }
        assertThat(executed.getAsLong()).as("commands the server executed for keys it was never to see").isEqualTo(before);
        template.set("good-\uD83D\uDE00", value, Duration.ZERO);
        assertThat(template.get("good-\uD83D\uDE00")).as("a paired surrogate (an emoji) is a valid key").isEqualTo(value);
    }

    private static long calls(RedisServer server, String command) {
        String stat;
        try {
            stat = server.info("commandstats", "cmdstat_" + command);
        }
        catch (IllegalStateException ex) {
            return 0; // never executed: INFO lists only commands that ran
        }
        int from = stat.indexOf("calls=") + "calls=".length();
        int to = stat.indexOf(',', from);
        return Long.parseLong(stat.substring(from, to < 0 ? stat.length() : to));
    }

    private static long stat(String name) {
        return Long.parseLong(memcached.server().stat(name));
    }
}
