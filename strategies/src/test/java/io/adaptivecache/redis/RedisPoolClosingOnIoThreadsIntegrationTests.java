package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.testservers.ProbeJvm;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A Lettuce pool with max-idle below max-total closes surplus connections when leases come back,
 * and opens replacements for waiting borrowers: neither may happen on the I/O thread a reply came
 * on, where the blocking connect waits for that same thread. It did, and every I/O thread hung
 * with calls in flight. Each transport runs {@link ShrinkingPoolProbe} in a JVM of its own
 * (Lettuce chooses one transport per JVM), which must finish its calls and close.
 */
class RedisPoolClosingOnIoThreadsIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = RedisTransport.class, names = { "NIO", "IO_URING" })
    void aPoolClosingSurplusConnectionsShouldKeepServing(RedisTransport transport) throws Exception {
        assumeThat(transport.isAvailable()).as(transport.label() + " on this machine: " + transport.unavailability()).isTrue();
        String run = ProbeJvm.run(ShrinkingPoolProbe.class, Duration.ofSeconds(90), List.of(), redis.uri(), transport.label());
        assertThat(run).contains("in-use=" + transport.label() + " calls=").contains(" closed");
    }
}
