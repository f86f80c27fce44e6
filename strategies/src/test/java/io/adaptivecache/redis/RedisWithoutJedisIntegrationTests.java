package io.adaptivecache.redis;

import java.time.Duration;

import io.adaptivecache.testservers.ProbeJvm;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis is optional: a Lettuce template is built, serves every command through every strategy
 * (POOLED on Lettuce) and switches between them in a JVM whose class path lacks the Jedis jar
 * (this module's test class path less that jar).
 */
class RedisWithoutJedisIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aLettuceTemplateShouldServeEveryStrategyWithoutJedis() throws Exception {
        String output = ProbeJvm.runWithout("Jedis", "jedis-", WithoutJedisProbe.class, Duration.ofSeconds(60), redis.uri());

        assertThat(output).contains("jedis=absent").contains("served=SINGLE").contains("served=MULTI").contains("served=POOLED")
                .doesNotContain("failed=");
    }
}
