package io.adaptivecache.resilience;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CachePoolExhaustedException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CallGuard} on Resilience4j: a circuit breaker (always), a retry for reads and a
 * semaphore bulkhead (each optional), applied in Resilience4j's recommended order, retry
 * outermost so that every attempt asks the breaker.
 *
 * <p>The calls are asynchronous, so the breaker is driven by hand (acquire a permission, then
 * report the attempt's duration and outcome when its future completes) rather than by
 * decorating a blocking call; timeouts stay with the clients' own timers, and nothing is
 * scheduled per call. A retried read waits on one scheduler thread that this guard owns.
 *
 * <p>Only server failures count against the breaker: timeouts waiting for the server and lost
 * connections. A pool with no free connection is ignored (the server may be healthy; the pool
 * is too small), and a server's error reply counts as the server answering.
 */
public final class Resilience4jCallGuard implements CallGuard {

    private final CircuitBreaker circuitBreaker;
    private final @Nullable Retry readRetry;
    private final @Nullable Bulkhead bulkhead;
    // Only with a read retry, which waits on it.
    private final @Nullable ScheduledExecutorService retryScheduler;
    /** The last failure the breaker counted, the cause of its refusals (written on failures only, off the success path). */
    private volatile @Nullable Throwable lastServerFailure;

    private Resilience4jCallGuard(CircuitBreaker circuitBreaker, @Nullable Retry readRetry, @Nullable Bulkhead bulkhead) {
        this.circuitBreaker = Objects.requireNonNull(circuitBreaker, "circuitBreaker");
        this.readRetry = readRetry;
        this.bulkhead = bulkhead;
        this.retryScheduler = readRetry == null ? null : retryScheduler(circuitBreaker.getName());
    }

    /**
     * A guard from Resilience4j instances, such as ones taken from the application's registries.
     * @param circuitBreaker the breaker every call asks
     * @param readRetry retries {@code get}, {@code getAll} and {@code gets}; {@code null} for none
     * @param bulkhead caps concurrent calls; {@code null} for none
     * @return the guard
     */
    public static Resilience4jCallGuard of(CircuitBreaker circuitBreaker, @Nullable Retry readRetry,
            @Nullable Bulkhead bulkhead) {
        return new Resilience4jCallGuard(circuitBreaker, readRetry, bulkhead);
    }

    /**
     * The breaker configuration this library recommends for a cache: opens when half the last
     * 100 calls (at least 20) failed or took over 500 ms, stays open 5 s, then lets 5 trial
     * calls through; counts only server failures (see the class comment). Its sliding window is
     * Resilience4j's default, which records an outcome under a short lock without allocating;
     * the lock-free window builds a new snapshot of the window for every outcome, on the I/O
     * thread that completed the call.
     * @return a builder to adjust further
     */
    public static CircuitBreakerConfig.Builder circuitBreakerDefaults() {
        return circuitBreakerDefaults(Duration.ofSeconds(5));
    }

    /**
     * {@link #circuitBreakerDefaults()} with another wait in the open state (Resilience4j
     * refuses a builder on which that wait is set twice).
     * @param waitDurationInOpenState how long the breaker stays open before trial calls
     * @return a builder to adjust further
     */
    public static CircuitBreakerConfig.Builder circuitBreakerDefaults(Duration waitDurationInOpenState) {
        return CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(100)
                .minimumNumberOfCalls(20)
                .failureRateThreshold(50)
                .slowCallRateThreshold(50)
                .slowCallDurationThreshold(Duration.ofMillis(500))
                .waitDurationInOpenState(waitDurationInOpenState)
                .permittedNumberOfCallsInHalfOpenState(5)
                .recordException(Resilience4jCallGuard::isServerFailure)
                .ignoreException(Resilience4jCallGuard::isNotAttempted);
    }

    /**
     * The read-retry configuration this library recommends: one more attempt after 50 ms, for
     * server failures and an exhausted pool only.
     * @return a builder to adjust further
     */
    public static RetryConfig.Builder<Object> readRetryDefaults() {
        return readRetryDefaults(Duration.ofMillis(50));
    }

    /**
     * {@link #readRetryDefaults()} with another wait between attempts (set it here, not again
     * on the builder).
     * @param waitDuration the wait between attempts
     * @return a builder to adjust further
     */
    public static RetryConfig.Builder<Object> readRetryDefaults(Duration waitDuration) {
        return RetryConfig.custom()
                .maxAttempts(2)
                .waitDuration(waitDuration)
                .retryOnException(failure -> isServerFailure(failure) || failure instanceof CachePoolExhaustedException);
    }

    /**
     * The bulkhead configuration this library recommends: 256 concurrent calls, and a caller
     * over that is refused at once rather than parked.
     * @return a builder to adjust further
     */
    public static BulkheadConfig.Builder bulkheadDefaults() {
        return BulkheadConfig.custom().maxConcurrentCalls(256).maxWaitDuration(Duration.ZERO);
    }

    /**
     * Whether a failure says the server is unreachable or stalled.
     * @param failure the exception a call ended with
     * @return {@code true} for timeouts waiting for the server and connection failures
     */
    public static boolean isServerFailure(Throwable failure) {
        return (failure instanceof CacheTimeoutException && !(failure instanceof CachePoolExhaustedException))
                || failure instanceof CacheConnectionException;
    }

    private static boolean isNotAttempted(Throwable failure) {
        return failure instanceof CachePoolExhaustedException || failure instanceof CacheRejectedException;
    }

    /**
     * The breaker this guard asks.
     * @return the breaker
     */
    public CircuitBreaker circuitBreaker() {
        return this.circuitBreaker;
    }

    @Override
    public <T extends @Nullable Object> CompletableFuture<T> call(CacheCommand command, Supplier<CompletableFuture<T>> attempt,
            CallObserver rejections) {
        Retry retry = this.readRetry;
        if (retry == null || !isRead(command)) {
            return attempt(command, attempt, rejections);
        }
        return Retry.decorateCompletionStage(retry, this.retryScheduler, () -> attempt(command, attempt, rejections))
                .get().toCompletableFuture();
    }

    private static boolean isRead(CacheCommand command) {
        return command == CacheCommand.GET || command == CacheCommand.GET_ALL || command == CacheCommand.GETS;
    }

    private <T extends @Nullable Object> CompletableFuture<T> attempt(CacheCommand command,
            Supplier<CompletableFuture<T>> attempt, CallObserver rejections) {
        CircuitBreaker breaker = this.circuitBreaker;
        // The state before asking as well as after: a refusal comes from OPEN, HALF_OPEN or FORCED_OPEN, and the breaker may
        // have moved on (even to CLOSED) by the time the message is written; it must name a state that refuses.
        CircuitBreaker.State before = breaker.getState();
        if (!breaker.tryAcquirePermission()) {
            CircuitBreaker.State after = breaker.getState();
            rejections.onCall(command, CallOutcome.REJECTED, 0);
            Throwable last = this.lastServerFailure;
            return CompletableFuture.failedFuture(new CacheRejectedException(breakerRefusal(breaker, before, after)
                    + (last != null ? "; the last failure it counted: " + last.getMessage() : ""), last));
        }
        Bulkhead permits = this.bulkhead;
        if (permits != null && !permits.tryAcquirePermission()) {
            breaker.releasePermission();
            rejections.onCall(command, CallOutcome.REJECTED, 0);
            return CompletableFuture.failedFuture(new CacheRejectedException(bulkheadRefusal(permits), null));
        }
        long started = System.nanoTime();
        CompletableFuture<T> result;
        try {
            result = attempt.get();
        }
        catch (RuntimeException | Error ex) {
            // The attempt's contract is to fail in its future; a throw here is a bug, still reported honestly.
            complete(permits, breaker, started, ex);
            throw ex;
        }
        return result.whenComplete((value, failure) -> complete(permits, breaker, started, failure));
    }

    /**
     * Why the breaker refused: its name and the state that refused, read before and after asking (a refusal comes only
     * from OPEN, HALF_OPEN or FORCED_OPEN; a state read later may already be another).
     */
    static String breakerRefusal(CircuitBreaker breaker, CircuitBreaker.State before, CircuitBreaker.State after) {
        CircuitBreaker.State refusing = refuses(after) ? after : refuses(before) ? before : null;
        StringBuilder message = new StringBuilder("Circuit breaker '").append(breaker.getName()).append("' refused the call: ");
        if (refusing == null) {
            message.append("it was OPEN or HALF_OPEN when asked");
        }
        else {
            message.append("it was ").append(refusing);
        }
        if (refusing != after) {
            message.append(" (").append(after).append(" by the time this message was written)");
        }
        message.append("; the call was not attempted");
        CircuitBreakerConfig config = breaker.getCircuitBreakerConfig();
        if (refusing == CircuitBreaker.State.OPEN) {
            message.append("; trial calls go through once its wait in the open state ends");
        }
        else if (refusing == CircuitBreaker.State.HALF_OPEN) {
            message.append("; its ").append(config.getPermittedNumberOfCallsInHalfOpenState())
                    .append(" trial calls were under way, and their outcome closes or opens it again");
        }
        else if (refusing == CircuitBreaker.State.FORCED_OPEN) {
            message.append("; it was forced open and refuses every call until the application changes its state");
        }
        return message.toString();
    }

    private static boolean refuses(CircuitBreaker.State state) {
        return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.HALF_OPEN
                || state == CircuitBreaker.State.FORCED_OPEN;
    }

    /** Why the bulkhead refused: its name and the number of concurrent calls it lets through. */
    static String bulkheadRefusal(Bulkhead bulkhead) {
        BulkheadConfig config = bulkhead.getBulkheadConfig();
        return "Bulkhead '" + bulkhead.getName() + "' refused the call: all its " + config.getMaxConcurrentCalls()
                + " concurrent-call permits were taken" + (config.getMaxWaitDuration().isZero() ? ""
                        : " for the " + config.getMaxWaitDuration().toMillis() + " ms it may wait for one")
                + "; the call was not attempted";
    }

    private void complete(@Nullable Bulkhead permits, CircuitBreaker breaker, long started, @Nullable Throwable failure) {
        if (permits != null) {
            permits.onComplete();
        }
        long elapsed = System.nanoTime() - started;
        if (failure == null) {
            breaker.onSuccess(elapsed, TimeUnit.NANOSECONDS);
        }
        else {
            Throwable cause = unwrap(failure);
            breaker.onError(elapsed, TimeUnit.NANOSECONDS, cause);
            if (isServerFailure(cause)) {
                this.lastServerFailure = cause;
            }
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    @Override
    public GuardStatus status() {
        CircuitBreaker.Metrics metrics = this.circuitBreaker.getMetrics();
        return new GuardStatus(this.circuitBreaker.getName(), this.circuitBreaker.getState().name(), metrics.getFailureRate(),
                metrics.getSlowCallRate(), metrics.getNumberOfNotPermittedCalls(), this.readRetry != null,
                this.bulkhead == null ? -1 : this.bulkhead.getMetrics().getAvailableConcurrentCalls());
    }

    @Override
    public void close() {
        if (this.retryScheduler != null) {
            this.retryScheduler.shutdownNow();
        }
    }

    private static ScheduledExecutorService retryScheduler(String name) {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "adaptive-cache-retry-" + name);
            thread.setDaemon(true);
            return thread;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    @Override
    public String toString() {
        return "Resilience4jCallGuard[" + this.circuitBreaker.getName() + (this.readRetry != null ? ", read retry" : "")
                + (this.bulkhead != null ? ", bulkhead" : "") + "]";
    }
}
