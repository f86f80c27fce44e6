package io.adaptivecache.memcached;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.adaptivecache.CacheTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class OperationDeadlinesTests {

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

            // Both stay queued: a sweep stops at the first call still in time.
            assertThat(deadlines.size()).isEqualTo(2);
            await("the completed call's value to be collectable").atMost(Duration.ofSeconds(10)).until(() -> {
                System.gc();
                return value.get() == null;
            });
            assertThat(deadlines.size()).isEqualTo(2);
            assertThat(stillPending).isNotDone();
        }
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
