package io.adaptivecache.memcached;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MemcachedServerAddressTests {

    @Test
    void shouldParseServersWithOptionalWeights() {
        assertThat(MemcachedServerAddress.parseList("10.0.0.1:11211:3, 10.0.0.2:11212 cache-3:11211"))
                .containsExactly(new MemcachedServerAddress("10.0.0.1", 11211, 3), new MemcachedServerAddress("10.0.0.2", 11212, 1),
                        new MemcachedServerAddress("cache-3", 11211, 1));
    }

    @Test
    void shouldNameTheMalformedEntry() {
        assertThatIllegalArgumentException().isThrownBy(() -> MemcachedServerAddress.parseList("ok:1,bad"))
                .withMessageContaining("'bad'").withMessageContaining("host:port");
        assertThatIllegalArgumentException().isThrownBy(() -> MemcachedServerAddress.parse("h:70000"))
                .withMessageContaining("between 1 and 65535");
        assertThatIllegalArgumentException().isThrownBy(() -> MemcachedServerAddress.parse("h:1:0"))
                .withMessageContaining("weight must be at least 1");
        assertThatIllegalArgumentException().isThrownBy(() -> MemcachedServerAddress.parseList(" "))
                .withMessageContaining("No memcached servers");
    }

    @Test
    void shouldPrintWeightsOnlyWhenSet() {
        assertThat(MemcachedServerAddress.parse("h:1:2")).hasToString("h:1:2");
        assertThat(MemcachedServerAddress.parse("h:1")).hasToString("h:1");
    }
}
