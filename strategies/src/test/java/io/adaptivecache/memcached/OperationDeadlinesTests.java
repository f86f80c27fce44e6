package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.adaptivecache.CacheTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
