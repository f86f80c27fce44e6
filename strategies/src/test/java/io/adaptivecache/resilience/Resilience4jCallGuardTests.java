package io.adaptivecache.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CachePoolExhaustedException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.testservers.Allocations;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The guard's decisions, on attempts that complete at once with a chosen outcome: which failures
 * open the breaker, what an open breaker or a full bulkhead does, and what is retried.
 */
class Resilience4jCallGuardTests {

    private final List<CallOutcome> rejections = new ArrayList<>();
    private final CallObserver observer = (command, outcome, latency) -> this.rejections.add(outcome);
    private Resilience4jCallGuard guard;

    @AfterEach
    void close() {
        if (this.guard != null) {
            this.guard.close();
        }
    }

    private static CircuitBreaker breaker(int minimumCalls) {
        return CircuitBreaker.of("test", Resilience4jCallGuard.circuitBreakerDefaults(Duration.ofMillis(200))
                .slidingWindowSize(minimumCalls).minimumNumberOfCalls(minimumCalls).build());
    }

    private static Supplier<CompletableFuture<String>> failingWith(RuntimeException failure, AtomicInteger attempts) {
        return () -> {
            attempts.incrementAndGet();
            return CompletableFuture.failedFuture(failure);
        };
    }

    private static Supplier<CompletableFuture<String>> succeeding(AtomicInteger attempts) {
        return () -> {
            attempts.incrementAndGet();
            return CompletableFuture.completedFuture("ok");
        };
    }

    @Test
    void theRecommendedBreakerShouldRecordAnOutcomeWithoutCopyingItsWindow() {
        // Every call's outcome is recorded on the I/O thread that completed it. Resilience4j's lock-free window builds a new
        // copy of the window per outcome (about 250 bytes); its default window records in place and returns a 40-byte
        // summary, which the JIT removes or not.
        CircuitBreaker breaker = CircuitBreaker.of("allocation", Resilience4jCallGuard.circuitBreakerDefaults().build());
        assertThat(bytesPerRecordedOutcome(breaker)).isLessThan(100);
    }

    /** Bytes this thread allocates per permission and success recorded, once the JIT has compiled the path. */
    static double bytesPerRecordedOutcome(CircuitBreaker breaker) {
        return Allocations.bytesPerCall(100_000, () -> {
            breaker.tryAcquirePermission();
            breaker.onSuccess(1_000, TimeUnit.NANOSECONDS);
        });
    }

    @Test
    void serverFailuresShouldOpenTheBreakerWhichThenRefusesWithoutAttempting() {
        this.guard = Resilience4jCallGuard.of(breaker(10), null, null);
        AtomicInteger attempts = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            RuntimeException failure = i % 2 == 0 ? new CacheTimeoutException("slow", null) : new CacheConnectionException("gone", null);
            this.guard.call(CacheCommand.SET, failingWith(failure, attempts), this.observer);
        }
        assertThat(this.guard.status().circuitState()).isEqualTo("OPEN");

        CompletableFuture<String> refused = this.guard.call(CacheCommand.SET, succeeding(attempts), this.observer);

        assertThatThrownBy(refused::join).hasCauseInstanceOf(CacheRejectedException.class)
                .hasMessageContaining("Circuit breaker 'test' refused the call: it was OPEN;")
                .hasMessageContaining("the last failure it counted: gone")
                .satisfies(failure -> assertThat(failure.getCause().getCause()).as("the failure behind the refusal")
                        .isInstanceOf(CacheConnectionException.class).hasMessage("gone"));
        assertThat(attempts).hasValue(10);
        assertThat(this.rejections).containsExactly(CallOutcome.REJECTED);
        assertThat(this.guard.status().circuitOpen()).isTrue();
    }

    @Test
    void theBreakerShouldCloseAgainWhenTrialCallsSucceed() {
        this.guard = Resilience4jCallGuard.of(breaker(5), null, null);
        AtomicInteger attempts = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            this.guard.call(CacheCommand.GET, failingWith(new CacheConnectionException("gone", null), attempts), this.observer);
        }
        assertThat(this.guard.status().circuitState()).isEqualTo("OPEN");

        // The breaker moves to half-open on the first call after its wait; poll with real calls.
        await().atMost(Duration.ofSeconds(5)).until(() -> !this.guard.call(CacheCommand.GET, succeeding(attempts), this.observer)
                .isCompletedExceptionally());
        for (int i = 0; i < 5; i++) {
            this.guard.call(CacheCommand.GET, succeeding(attempts), this.observer).join();
        }

        assertThat(this.guard.status().circuitState()).isEqualTo("CLOSED");
    }

    @Test
    void anExhaustedPoolAndServerErrorRepliesShouldNotOpenTheBreaker() {
        this.guard = Resilience4jCallGuard.of(breaker(5), null, null);
        AtomicInteger attempts = new AtomicInteger();
        for (int i = 0; i < 20; i++) {
            RuntimeException failure = i % 2 == 0 ? new CachePoolExhaustedException("pool busy", null)
                    : new CacheServerException("WRONGTYPE", null);
            this.guard.call(CacheCommand.INCR, failingWith(failure, attempts), this.observer);
        }

        assertThat(this.guard.status().circuitState()).isEqualTo("CLOSED");
        assertThat(attempts).hasValue(20);
        assertThat(this.rejections).isEmpty();
    }

    @Test
    void readsShouldBeRetriedOnServerFailuresAndWritesNever() {
        Retry retry = Retry.of("test", Resilience4jCallGuard.readRetryDefaults(Duration.ofMillis(1))
                .maxAttempts(3).build());
        this.guard = Resilience4jCallGuard.of(breaker(100), retry, null);
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger flaky = new AtomicInteger();

        CompletableFuture<String> read = this.guard.call(CacheCommand.GET,
                failingWith(new CacheConnectionException("gone", null), reads), this.observer);
        CompletableFuture<String> write = this.guard.call(CacheCommand.SET,
                failingWith(new CacheConnectionException("gone", null), writes), this.observer);
        CompletableFuture<String> recovered = this.guard.call(CacheCommand.GETS, () -> flaky.incrementAndGet() == 1
                ? CompletableFuture.failedFuture(new CacheTimeoutException("slow", null)) : CompletableFuture.completedFuture("ok"),
                this.observer);

        assertThatThrownBy(read::join).isInstanceOf(CompletionException.class).hasCauseInstanceOf(CacheConnectionException.class);
        assertThat(reads).hasValue(3);
        assertThatThrownBy(write::join).hasCauseInstanceOf(CacheConnectionException.class);
        assertThat(writes).hasValue(1);
        assertThat(recovered.join()).isEqualTo("ok");
        assertThat(flaky).hasValue(2);
    }

    @Test
    void aServerErrorReplyShouldNotBeRetried() {
        Retry retry = Retry.of("test", Resilience4jCallGuard.readRetryDefaults(Duration.ofMillis(1)).build());
        this.guard = Resilience4jCallGuard.of(breaker(100), retry, null);
        AtomicInteger attempts = new AtomicInteger();

        CompletableFuture<String> read = this.guard.call(CacheCommand.GET,
                failingWith(new CacheServerException("WRONGTYPE", null), attempts), this.observer);

        assertThatThrownBy(read::join).hasCauseInstanceOf(CacheServerException.class);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void aFullBulkheadShouldRefuseAtOnceAndFreeItsPermitWhenACallCompletes() {
        Bulkhead bulkhead = Bulkhead.of("test", Resilience4jCallGuard.bulkheadDefaults().maxConcurrentCalls(2).build());
        this.guard = Resilience4jCallGuard.of(breaker(100), null, bulkhead);
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        this.guard.call(CacheCommand.GET, () -> first, this.observer);
        this.guard.call(CacheCommand.GET, () -> second, this.observer);
        AtomicInteger attempts = new AtomicInteger();

        CompletableFuture<String> refused = this.guard.call(CacheCommand.GET, succeeding(attempts), this.observer);

        assertThatThrownBy(refused::join).hasCauseInstanceOf(CacheRejectedException.class)
                .hasMessageContaining("Bulkhead 'test' refused the call: all its 2 concurrent-call permits were taken");
        assertThat(attempts).hasValue(0);
        assertThat(this.guard.status().bulkheadAvailable()).isZero();
        first.complete("done");
        assertThat(this.guard.status().bulkheadAvailable()).isEqualTo(1);
        assertThat(this.guard.call(CacheCommand.GET, succeeding(attempts), this.observer).join()).isEqualTo("ok");
        assertThat(this.rejections).containsExactly(CallOutcome.REJECTED);
    }

    @Test
    void aForcedOpenBreakerShouldBeNamedAsTheRefuser() {
        CircuitBreaker breaker = breaker(10);
        breaker.transitionToForcedOpenState();
        this.guard = Resilience4jCallGuard.of(breaker, null, bulkhead(1));
        AtomicInteger attempts = new AtomicInteger();

        CompletableFuture<String> refused = this.guard.call(CacheCommand.GET, succeeding(attempts), this.observer);

        assertThatThrownBy(refused::join).hasCauseInstanceOf(CacheRejectedException.class)
                .hasMessageContaining("Circuit breaker 'test' refused the call: it was FORCED_OPEN;").hasMessageNotContaining("Bulkhead");
        assertThat(attempts).hasValue(0);
    }

    @Test
    void aHalfOpenBreakerWhoseTrialCallsAreUnderWayShouldBeNamedAsTheRefuser() {
        CircuitBreaker breaker = CircuitBreaker.of("test", Resilience4jCallGuard.circuitBreakerDefaults(Duration.ofSeconds(30))
                .permittedNumberOfCallsInHalfOpenState(1).build());
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        this.guard = Resilience4jCallGuard.of(breaker, null, null);

        // The call under way is the breaker's one trial call.
        refusedUnattemptedWhileOneCallIsUnderWay(CacheCommand.GET)
                .hasMessageContaining("Circuit breaker 'test' refused the call: it was HALF_OPEN;")
                .hasMessageContaining("its 1 trial calls were under way");
    }

    @Test
    void aBulkheadWithItsOnePermitHeldShouldBeNamedAsTheRefuserNotTheBreaker() {
        this.guard = Resilience4jCallGuard.of(breaker(10), null, bulkhead(1));

        // The call under way holds the bulkhead's one permit.
        refusedUnattemptedWhileOneCallIsUnderWay(CacheCommand.SET)
                .hasMessageContaining("Bulkhead 'test' refused the call: all its 1 concurrent-call permits were taken")
                .hasMessageNotContaining("Circuit breaker");
    }

    /**
     * With a GET under way on {@link #guard} (completed before this returns, once the refusal is
     * in hand), a call of {@code command} must be refused with {@link CacheRejectedException} and
     * never attempted.
     * @return the refusal, for the test to check what its message names
     */
    private AbstractThrowableAssert<?, ? extends Throwable> refusedUnattemptedWhileOneCallIsUnderWay(CacheCommand command) {
        CompletableFuture<String> underWay = new CompletableFuture<>();
        this.guard.call(CacheCommand.GET, () -> underWay, this.observer);
        AtomicInteger attempts = new AtomicInteger();
        try {
            CompletableFuture<String> refused = this.guard.call(command, succeeding(attempts), this.observer);

            AbstractThrowableAssert<?, ? extends Throwable> refusal = assertThatThrownBy(refused::join)
                    .hasCauseInstanceOf(CacheRejectedException.class);
            assertThat(attempts).hasValue(0);
            return refusal;
        }
        finally {
            underWay.complete("done");
        }
    }

    /**
     * The breaker closes between refusing the call and the message being written (as another thread's successful trial
     * calls close it): the message must name the state that refused, not CLOSED, a state that never refuses.
     */
    @Test
    void aBreakerThatClosesRightAfterRefusingShouldStillBeReportedInTheStateThatRefused() {
        CircuitBreaker real = breaker(10);
        real.transitionToOpenState();
        CircuitBreaker closingRightAfterRefusing = (CircuitBreaker) java.lang.reflect.Proxy.newProxyInstance(
                CircuitBreaker.class.getClassLoader(), new Class<?>[] { CircuitBreaker.class }, (proxy, method, args) -> {
                    Object answer;
                    try {
                        answer = method.invoke(real, args);
                    }
                    catch (java.lang.reflect.InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                    if (method.getName().equals("tryAcquirePermission") && Boolean.FALSE.equals(answer)) {
                        real.transitionToClosedState();
                    }
                    return answer;
                });
        this.guard = Resilience4jCallGuard.of(closingRightAfterRefusing, null, null);
        AtomicInteger attempts = new AtomicInteger();

        CompletableFuture<String> refused = this.guard.call(CacheCommand.GET, succeeding(attempts), this.observer);

        assertThatThrownBy(refused::join).hasCauseInstanceOf(CacheRejectedException.class)
                .hasMessageContaining("Circuit breaker 'test' refused the call: it was OPEN (CLOSED by the time this message was written)")
                .hasMessageNotContaining("it was CLOSED").hasMessageNotContaining("is CLOSED");
        assertThat(attempts).hasValue(0);
        assertThat(real.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    private static Bulkhead bulkhead(int permits) {
        return Bulkhead.of("test", Resilience4jCallGuard.bulkheadDefaults().maxConcurrentCalls(permits).build());
    }

    @Test
    void noGuardShouldLetEveryCallThroughOnce() {
        AtomicInteger attempts = new AtomicInteger();

        CallGuard.NONE.call(CacheCommand.GET, failingWith(new CacheConnectionException("gone", null), attempts), this.observer);

        assertThat(attempts).hasValue(1);
        assertThat(CallGuard.NONE.status()).isEqualTo(GuardStatus.UNGUARDED);
    }
}
