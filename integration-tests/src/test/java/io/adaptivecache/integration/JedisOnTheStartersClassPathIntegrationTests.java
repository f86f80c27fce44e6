package io.adaptivecache.integration;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter excludes Jedis's JSON libraries (gson, org.json: Jedis uses them only for the
 * RedisJSON and search modules), so every command the POOLED Jedis driver sends (SET with PX, GET,
 * MGET, DEL, INCRBY/DECRBY, PEXPIRE and the Lua scripts for add, replace, gets/cas and touch) must
 * work on the starter's class path without them. Values are read back from the server itself.
 */
@SpringBootTest(classes = CachingTestApplication.class, properties = { "adaptive-cache.redis.strategy.type=pooled",
        "adaptive-cache.redis.pooled-driver=jedis" })
class JedisOnTheStartersClassPathIntegrationTests extends RealCacheServers {

    @Autowired
    @Qualifier("redisCacheTemplate")
    private ManagedCacheTemplate template;

    @Test
    void theJsonLibrariesShouldBeAbsentAndEveryJedisCommandShouldStillWork() {
        ClassLoader classLoader = getClass().getClassLoader();
        assertThat(ClassUtils.isPresent("com.google.gson.Gson", classLoader)).as("gson on the starter's class path").isFalse();
        assertThat(ClassUtils.isPresent("org.json.JSONObject", classLoader)).as("org.json on the starter's class path").isFalse();
        assertThat(this.template.stats().pooledConnectionsBlock()).as("the POOLED strategy runs on Jedis").isTrue();

        this.template.set("jedis:a", bytes("1"), Duration.ofMinutes(1));
        this.template.set("jedis:b", bytes("2"), Duration.ZERO);
        assertThat(redis.server().command("GET", "jedis:a")).isEqualTo("1");
        assertThat(Long.parseLong(redis.server().command("PTTL", "jedis:a"))).isBetween(1L, 60_000L);
        assertThat(this.template.get("jedis:a")).containsExactly(bytes("1"));
        Map<String, byte[]> both = this.template.getAll(List.of("jedis:a", "jedis:b", "jedis:none"));
        assertThat(both).containsOnlyKeys("jedis:a", "jedis:b");

        assertThat(this.template.add("jedis:a", bytes("x"), Duration.ZERO)).as("add on a present key").isFalse();
        assertThat(this.template.add("jedis:c", bytes("3"), Duration.ZERO)).as("add on an absent key").isTrue();
        assertThat(this.template.replace("jedis:c", bytes("4"), Duration.ZERO)).isTrue();
        assertThat(redis.server().command("GET", "jedis:c")).isEqualTo("4");

        CasValue<byte[]> versioned = this.template.gets("jedis:c");
        assertThat(this.template.cas("jedis:c", versioned.token(), bytes("5"), Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(redis.server().command("GET", "jedis:c")).isEqualTo("5");

        assertThat(this.template.incr("jedis:n", 7)).isEqualTo(7);
        assertThat(this.template.decr("jedis:n", 2)).isEqualTo(5);
        assertThat(redis.server().command("GET", "jedis:n")).isEqualTo("5");

        assertThat(this.template.touch("jedis:b", Duration.ofSeconds(30))).isTrue();
        assertThat(Long.parseLong(redis.server().command("PTTL", "jedis:b"))).isBetween(1L, 30_000L);

        assertThat(this.template.delete("jedis:a")).isTrue();
        assertThat(redis.server().command("EXISTS", "jedis:a")).isEqualTo("0");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
