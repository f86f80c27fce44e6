package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.contract.ServerFaultContract;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Dead, frozen and overloaded memcached (binary protocol), on a server of this class's own. */
class MemcachedServerFaultIntegrationTests extends ServerFaultContract {

    /** The client library under test; the XMemcached subclasses change it. */
    protected MemcachedDriver driver() {
        return MemcachedDriver.SPYMEMCACHED;
    }

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Override
    protected ServerProcess server() {
        return memcached.server();
    }

    @Override
    protected boolean droppedWithAStalledConnection(String message) {
        return driver() == MemcachedDriver.SPYMEMCACHED && message.contains("dropped the operation (server unreachable or reconnecting)");
    }

    /**
     * spymemcached closes and reopens a connection after 100 timeouts in a row (a stalled server),
     * counting the timeouts its own futures see; the calls this project fails on their deadline
     * must count too, or a stalled connection is never reopened. The calls are spread over the
     * timeout, so that those still queued when the connection is reopened are dropped then, with
     * that reason, rather than each waiting for its own deadline.
     */
    @Test
    void aConnectionWhoseCallsKeepTimingOutIsReopened() {
        assumeTrue(driver() == MemcachedDriver.SPYMEMCACHED, "XMemcached keeps its connection and times calls out itself");
        ManagedCacheTemplate template = closeLater(startTemplate(StrategySpec.single(), CallGuard.NONE, 8192));
        template.set("stalled:sentinel", new byte[] { 7 }, Duration.ZERO);
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        server().freeze();
        try {
            long spreadUntil = System.nanoTime() + TIMEOUT.multipliedBy(3).toNanos();
            for (int i = 0; i < 300 && System.nanoTime() - spreadUntil < 0; i++) {
                calls.add(template.getAsync("stalled:" + i));
                LockSupport.parkNanos(TIMEOUT.toNanos() / 100);
            }
            await("every call to end").atMost(Duration.ofSeconds(10)).until(() -> calls.stream().allMatch(CompletableFuture::isDone));
        }
        finally {
            server().thaw();
        }
        List<Throwable> failures = calls.stream().map(call -> call.handle((value, failure) -> failure).join())
                .map(failure -> failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure)
                .toList();
        assertThat(failures).as("calls that timed out").filteredOn(CacheTimeoutException.class::isInstance).hasSizeGreaterThan(100);
        assertThat(failures).as("calls dropped when the stalled connection was reopened")
                .filteredOn(failure -> failure != null && droppedWithAStalledConnection(String.valueOf(failure.getMessage())))
                .isNotEmpty();
        await("the template to serve again").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> template.get("stalled:sentinel") != null);
    }

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy, CallGuard guard, int queueSize) {
        return MemcachedCacheTemplates.builder().driver(driver()).servers(memcached.addresses()).strategy(strategy).guard(guard)
                .operationTimeout(TIMEOUT).connectTimeout(CONNECT_TIMEOUT).maxReconnectDelay(Duration.ofSeconds(1))
                .operationQueueSize(queueSize).drainTimeout(Duration.ofSeconds(2)).start();
    }
}
