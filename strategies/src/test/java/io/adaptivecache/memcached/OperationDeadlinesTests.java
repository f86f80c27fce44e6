package io.adaptivecache.memcached;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.adaptivecache.CacheTimeoutException;
import net.spy.memcached.ops.GetOperation;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.protocol.binary.BinaryOperationFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class OperationDeadlinesTests {

    private static final BinaryOperationFactory OPERATIONS = new BinaryOperationFactory();

    /** A timeout far beyond the test, so the background sweep never fires; sweeps are driven by hand. */
    private static final long TIMEOUT = Duration.ofHours(1).toNanos();

    @Test
    void shouldFailAndCancelOnlyOperationsPastTheirDeadline() {
        try (OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1")) {
            CompletableFuture<String> silent = new CompletableFuture<>();
            CompletableFuture<Object> silentOperation = new CompletableFuture<>();
            CompletableFuture<String> answered = new CompletableFuture<>();
            deadlines.track(silent, silentOperation);
            deadlines.track(answered, new CompletableFuture<>());

            deadlines.sweep(System.nanoTime());
            assertThat(silent).isNotDone();

            answered.complete("ok");
            deadlines.sweep(System.nanoTime() + TIMEOUT + 1);

            // Checked without waiting first: a call the sweep missed would leave join() waiting for good.
            assertThat(silent).isCompletedExceptionally();
            assertThatThrownBy(silent::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(CacheTimeoutException.class).hasMessageContaining("did not answer within 3600000 ms");
            assertThat(silentOperation).isCancelled();
            assertThat(answered.join()).isEqualTo("ok");
            assertThat(deadlines.size()).isZero();
        }
    }

    @Test
    void shouldNotTrackWhatIsAlreadyDone() {
        try (OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1")) {
            deadlines.track(CompletableFuture.completedFuture("done"), new CompletableFuture<>());

            assertThat(deadlines.size()).isZero();
        }
    }

    @Test
    void closingShouldFailWhatIsStillPending() {
        CompletableFuture<String> pending = new CompletableFuture<>();
        OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1");
        deadlines.track(pending, new CompletableFuture<>());

        deadlines.close();

        assertThat(pending).isCompletedExceptionally();
    }

    @Test
    void aCompletedCallQueuedBehindAPendingOneKeepsNoValueAlive() {
        try (OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1")) {
            CompletableFuture<byte[]> stillPending = new CompletableFuture<>();
            deadlines.track(stillPending, new CompletableFuture<>());
            WeakReference<byte[]> value = trackAndComplete(deadlines);

            assertCollectedWhileBothStayQueued(deadlines, value, stillPending);
        }
    }

    @Test
    void aCallOnSpymemcachedsOwnOperationPastItsDeadlineFailsAndTheOperationIsTimedOutAndCancelled() {
        try (OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1")) {
            SpymemcachedCall.Get silent = new SpymemcachedCall.Get();
            GetOperation silentOperation = track(deadlines, "silent", silent);
            SpymemcachedCall.Get answered = new SpymemcachedCall.Get();
            GetOperation answeredOperation = track(deadlines, "answered", answered);

            deadlines.sweep(System.nanoTime());
            assertThat(silent).isNotDone();

            answer(answered, "ok".getBytes(StandardCharsets.UTF_8));
            deadlines.sweep(System.nanoTime() + TIMEOUT + 1);

            // Checked without waiting first: a call the sweep missed would leave join() waiting for good.
            assertThat(silent).isCompletedExceptionally();
            assertThatThrownBy(silent::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(CacheTimeoutException.class).hasMessageContaining("did not answer within 3600000 ms");
            // Timed out as spymemcached times out its own, and cancelled so that it is never written.
            assertThat(silentOperation.isTimedOut()).isTrue();
            assertThat(silentOperation.isCancelled()).isTrue();
            assertThat(answered.join()).asString(StandardCharsets.UTF_8).isEqualTo("ok");
            assertThat(answeredOperation.isCancelled()).isFalse();
            assertThat(deadlines.size()).isZero();
        }
    }

    @Test
    void aCallOnSpymemcachedsOwnOperationThatCompletedKeepsNoValueAliveBehindAPendingOne() {
        try (OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1")) {
            SpymemcachedCall.Get stillPending = new SpymemcachedCall.Get();
            track(deadlines, "pending", stillPending);
            WeakReference<byte[]> value = trackAndAnswer(deadlines);

            assertCollectedWhileBothStayQueued(deadlines, value, stillPending);
        }
    }

    /** Both calls stay queued (a sweep stops at the first call still in time), yet the completed one's value can be collected. */
    private static void assertCollectedWhileBothStayQueued(OperationDeadlines deadlines, WeakReference<byte[]> value,
            CompletableFuture<?> stillPending) {
        assertThat(deadlines.size()).isEqualTo(2);
        await("the completed call's value to be collectable").atMost(Duration.ofSeconds(10)).until(() -> {
            System.gc();
            return value.get() == null;
        });
        assertThat(deadlines.size()).isEqualTo(2);
        assertThat(stillPending).isNotDone();
    }

    @Test
    void aCallWhoseOperationWasNeverQueuedIsNotFailedLater() {
        try (OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, "test:1")) {
            SpymemcachedCall.Get refused = new SpymemcachedCall.Get();
            GetOperation operation = track(deadlines, "refused", refused);

            refused.abandon();
            deadlines.sweep(System.nanoTime() + TIMEOUT + 1);

            assertThat(refused).isNotDone();
            assertThat(operation.isCancelled()).isFalse();
            assertThat(deadlines.size()).isZero();
        }
    }

    private static WeakReference<byte[]> trackAndAnswer(OperationDeadlines deadlines) {
        SpymemcachedCall.Get call = new SpymemcachedCall.Get();
        track(deadlines, "answered", call);
        byte[] value = new byte[100 * 1024];
        answer(call, value);
        assertThat(call.join()).isSameAs(value);
        return new WeakReference<>(value);
    }

    /** A get on spymemcached's own operation, tracked as the commands track it: before it is queued (here, never). */
    private static GetOperation track(OperationDeadlines deadlines, String key, SpymemcachedCall.Get call) {
        GetOperation operation = OPERATIONS.get(key, call);
        deadlines.track(call, operation);
        return operation;
    }

    /** What spymemcached's I/O thread does with a get's reply. */
    private static void answer(SpymemcachedCall.Get call, byte[] value) {
        call.gotData("key", 0, value);
        call.receivedStatus(new OperationStatus(true, "OK", StatusCode.SUCCESS));
        call.complete();
    }

    private static WeakReference<byte[]> trackAndComplete(OperationDeadlines deadlines) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        CompletableFuture<byte[]> operation = new CompletableFuture<>();
        deadlines.track(result, operation);
        byte[] value = new byte[100 * 1024];
        operation.complete(value);
        result.complete(value);
        return new WeakReference<>(value);
    }
}
