package io.adaptivecache.integration;

import java.time.Duration;

import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.ProbeJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter does not bring XMemcached, and an application on it needs none for the default
 * driver: on this module's class path less the XMemcached jar (which it holds only for the
 * XMemcached credential test), an application starts its memcached template on spymemcached and
 * serves template calls and Spring's cache, and {@code driver=xmemcached} fails its startup
 * naming the property and the dependency to add.
 */
class StarterWithoutXMemcachedIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Test
    void theDefaultDriverShouldServeWithoutXMemcachedAndTheXMemcachedDriverShouldNameTheDependencyToAdd() throws Exception {
        String output = ProbeJvm.runWithout("XMemcached", "xmemcached-", StarterWithoutXMemcachedProbe.class, Duration.ofSeconds(120),
                memcached.addresses());

        assertThat(output).contains("xmemcached=absent").contains("served=spymemcached").doesNotContain("started=xmemcached")
                .contains("refused=").contains("adaptive-cache.memcached.driver").contains("com.googlecode.xmemcached:xmemcached")
                .contains("add that dependency").doesNotContain("failed=");
    }
}
