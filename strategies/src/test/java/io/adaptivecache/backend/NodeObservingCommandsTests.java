package io.adaptivecache.backend;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.metrics.NodeSensors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The node breaker around a backend's commands, with commands that fail as told (no server: the
 * cluster tests cover the wire).
 */
class NodeObservingCommandsTests {

    private final NodeSensors sensors = new NodeSensors(8, NodeSensors.Settings.DEFAULTS,
            new NodeBreaker.Settings(2, Duration.ofMillis(50)));
    private final NodeSensor node = this.sensors.register("id-1", "127.0.0.1:1");
    private final AtomicReference<Supplier<CompletionStage<Object>>> next = new AtomicReference<>();
    private int sent;

    @SuppressWarnings("unchecked")
    private final CacheCommands<Object> backend = (CacheCommands<Object>) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {CacheCommands.class}, (proxy, method, args) -> {
                this.sent++;
                return this.next.get().get();
            });

    private final NodeObservingCommands<Object> commands = new NodeObservingCommands<>(this.backend, (connection, key) -> this.node,
            failure -> new CacheConnectionException("unreachable: " + failure.getMessage(), failure));

    @Test
    void unansweredCallsShouldOpenTheBreakerAndACommandThatThrowsShouldStillEndItsTrial() {
        this.next.set(() -> CompletableFuture.failedFuture(new IllegalStateException("connection reset")));
        assertFails(CacheConnectionException.class, "connection reset");
        assertFails(CacheConnectionException.class, "connection reset");
        int sentBefore = this.sent;
        assertFails(CacheRejectedException.class, "node 127.0.0.1:1");
        assertThat(this.sent).as("a refused call is not sent").isEqualTo(sentBefore);

        // The trial throws instead of failing its stage: it must still count, and free the trial for a later caller.
        this.next.set(() -> {
            throw new IllegalStateException("connection closed");
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> this.node.breaker().state().equals("HALF_OPEN"));
        assertFails(CacheConnectionException.class, "connection closed");
        assertThat(this.node.breaker().state()).isEqualTo("OPEN");

        this.next.set(() -> CompletableFuture.completedFuture(null));
        await().atMost(Duration.ofSeconds(5)).until(() -> this.node.breaker().state().equals("HALF_OPEN"));
        assertThat(this.commands.execute("connection", new Command.Get("k")).toCompletableFuture().join()).isNull();
        assertThat(this.node.breaker().state()).isEqualTo("CLOSED");
        assertThat(this.node.errors()).as("two failures, one refusal, one failed trial").isEqualTo(4);
    }

    private void assertFails(Class<? extends Exception> type, String message) {
        CompletableFuture<byte[]> call = this.commands.execute("connection", new Command.Get("k")).toCompletableFuture();
        assertThat(call).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isInstanceOf(type).withMessageContaining(message);
    }
}
