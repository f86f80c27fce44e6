package io.adaptivecache.memcached;

import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The memcached contract on one server over the binary protocol, on the XMemcached driver. */
class XMemcachedBinaryIntegrationTests extends MemcachedBinaryIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }

    /** Guards every XMemcached suite: the template's clients are XMemcached's, and spymemcached's I/O thread is never started. */
    @Override
    @Test
    void theClientLibraryShouldBeSetUpAsDocumented() {
        long spymemcachedBefore = threadsNamed("Memcached IO");
        start(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        template.set(key("k"), new byte[] {1}, java.time.Duration.ZERO);

        assertThat(threadsNamed("Xmemcached-Reactor")).as("XMemcached reactor threads").isGreaterThanOrEqualTo(2);
        assertThat(threadsNamed("Memcached IO")).as("spymemcached I/O threads").isEqualTo(spymemcachedBefore);
    }

    private static long threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).filter(t -> t.getName().startsWith(prefix))
                .count();
    }
}
