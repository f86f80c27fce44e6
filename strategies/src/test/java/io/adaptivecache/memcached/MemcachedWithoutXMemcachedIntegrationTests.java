package io.adaptivecache.memcached;

import java.time.Duration;

import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.ProbeJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * XMemcached is optional: a spymemcached template is built, serves every command through every
 * strategy, and switches between them in a JVM whose class path lacks the XMemcached jar (this
 * module's test class path less that jar), and the XMemcached driver asked for there is refused
 * naming the dependency to add.
 */
class MemcachedWithoutXMemcachedIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Test
    void aSpymemcachedTemplateShouldServeWithoutXMemcachedAndTheXMemcachedDriverShouldNameTheDependencyToAdd() throws Exception {
        String output = ProbeJvm.runWithout("XMemcached", "xmemcached-", WithoutXMemcachedProbe.class, Duration.ofSeconds(60),
                memcached.addresses());

        assertThat(output).contains("xmemcached=absent").contains("served=SINGLE").contains("served=MULTI").contains("served=POOLED")
                .contains("refused=The XMemcached driver needs com.googlecode.xmemcached:xmemcached").contains("add that dependency")
                .doesNotContain("failed=");
    }
}
