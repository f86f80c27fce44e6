package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Dead, frozen and overloaded memcached on the XMemcached driver. */
class XMemcachedServerFaultIntegrationTests extends MemcachedServerFaultIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }

    /**
     * XMemcached has no operation queue to flood: each call, async form included, waits for its
     * reply on the caller's thread, so what is in flight is bounded by the callers. A call at a
     * frozen server returns failed with a timeout within the bound, and the connection serves
     * again once the server resumes.
     */
    @Override
    @Test
    protected void aFloodOfAsyncCallsAtAFrozenServerShouldBeRefusedWhenTheQueueIsFullAndMemoryStayBounded() {
        ManagedCacheTemplate template = closeLater(startTemplate(StrategySpec.single(), CallGuard.NONE, 64));
        template.set("flood:sentinel", new byte[] { 7 }, Duration.ZERO);
        server().freeze();
        try {
            for (int i = 0; i < 3; i++) {
                long started = System.nanoTime();
                CompletableFuture<Void> call = template.setAsync("flood:" + i, new byte[1024], Duration.ZERO);
                Duration waited = Duration.ofNanos(System.nanoTime() - started);

                assertThat(call).as("completed before it returned").isDone();
                Throwable failure = call.handle((ok, ex) -> ex).join();
                Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                assertThat(cause).isInstanceOf(CacheTimeoutException.class).hasMessageContaining("did not answer in time");
                assertThat(waited).isBetween(TIMEOUT.minusMillis(50), TIMEOUT.plusSeconds(2));
            }
        }
        finally {
            server().thaw();
        }
        await("the connection to serve again").atMost(Duration.ofSeconds(15)).ignoreExceptions()
                .until(() -> template.get("flood:sentinel") != null);
        assertThat(template.get("flood:sentinel")).containsExactly(7);
    }
}
