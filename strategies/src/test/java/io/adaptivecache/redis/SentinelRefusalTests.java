package io.adaptivecache.redis;

import java.util.List;
import java.util.function.Consumer;

import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.redis.tracking.RedisInvalidations;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Every builder that takes a Redis URI refuses a Sentinel URI with the same words, before
 * anything connects: the template's, a cluster's seed nodes, and the near caches' invalidation
 * source. The setter itself refuses, so no {@code start()} (the only place that connects) is
 * ever reached; the Sentinels named sit on a loopback port where nothing listens, so that a
 * builder that took the URI could not pass for one that refused it.
 */
class SentinelRefusalTests {

    private static final String REFUSAL = "Redis Sentinel is not supported yet: give the master's address"
            + " (redis://host:port or rediss://host:port) instead of a Sentinel URI";

    // Nothing listens there (never 6379, not ours): a port that was free a moment ago.
    private static final String SENTINELS = "redis-sentinel://127.0.0.1:" + ServerProcess.freeLoopbackPort();

    @Test
    void theTemplateBuilderShouldRefuseASentinelUriBeforeConnecting() {
        assertRefused(List.of(SENTINELS + "/0#mymaster", SENTINELS, "rediss-sentinel" + SENTINELS.substring("redis-sentinel".length())
                + "#mymaster"), uri -> RedisCacheTemplates.builder().uri(uri), uri -> RedisCacheTemplates.builder().uri(uri));
    }

    @Test
    void theInvalidationSourceBuilderShouldRefuseASentinelUriWithTheTemplatesWords() {
        // Without master's name too: Lettuce cannot parse that one, and it is still a Sentinel URI, not a malformed one.
        assertRefused(List.of(SENTINELS + "/0#mymaster", SENTINELS), uri -> RedisInvalidations.builder().uri(uri),
                uri -> RedisInvalidations.builder().uri(uri));
    }

    @Test
    void theClusterBuilderShouldRefuseASentinelUriAsASeedNode() {
        assertRefused(List.of(SENTINELS + "/0#mymaster", SENTINELS), node -> RedisClusterCacheTemplates.builder().nodes("127.0.0.1:7000", node),
                uri -> RedisClusterCacheTemplates.builder().nodeUris(List.of(uri)));
    }

    /**
     * Asserts that a builder's setter refuses each Sentinel URI given as text, and the setter that
     * takes Lettuce's {@link RedisURI} refuses one too, each with {@link #REFUSAL}.
     */
    private static void assertRefused(List<String> uris, Consumer<String> byText, Consumer<RedisURI> byRedisUri) {
        for (String uri : uris) {
            assertThatIllegalArgumentException().as(uri).isThrownBy(() -> byText.accept(uri)).withMessage(REFUSAL);
        }
        RedisURI uri = RedisURI.create(SENTINELS + "#mymaster");
        assertThatIllegalArgumentException().as("%s as a RedisURI", uri).isThrownBy(() -> byRedisUri.accept(uri)).withMessage(REFUSAL);
    }

    @Test
    void aMalformedUriShouldStillBeCalledMalformedNotSentinel() {
        // The refusal is the Sentinel scheme's alone: the check must not swallow the other mistakes.
        assertThatIllegalArgumentException().isThrownBy(() -> RedisCacheTemplates.builder().uri("redis://user:secret@"))
                .withMessageStartingWith("Malformed Redis URI").withMessageNotContaining("secret");
        assertThatIllegalArgumentException().isThrownBy(() -> RedisClusterCacheTemplates.builder().nodes("not a node:x"))
                .withMessageStartingWith("Malformed Redis Cluster node");
        assertThat(RedisCacheTemplates.isSentinelUri(" REDIS-SENTINEL://h:26379#m")).isTrue();
        assertThat(RedisCacheTemplates.isSentinelUri("redis://sentinel:26379")).isFalse();
    }
}
