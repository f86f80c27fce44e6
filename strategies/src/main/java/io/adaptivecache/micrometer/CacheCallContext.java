package io.adaptivecache.micrometer;

import java.util.Locale;

import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.strategy.StrategyType;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of one cache call knows: the template, its backend, the command, the kind of
 * strategy that served it, the caller's form (sync or async) and, once it completed, its outcome.
 * Never a key or a value.
 */
public final class CacheCallContext extends Observation.Context {

    private final String template;
    private final String backend;
    private final CacheCommand command;
    private final StrategyType strategy;
    private final boolean async;
    private volatile @Nullable Outcome outcome;

    /**
     * Creates the context of one call.
     * @param template the template's name, such as {@code redis}
     * @param backend its backend, such as {@code redis} or {@code memcached}
     * @param command the command
     * @param strategy the type of the live strategy when the call was made
     * @param async whether the caller used an {@code ...Async} form
     */
    public CacheCallContext(String template, String backend, CacheCommand command, StrategyType strategy, boolean async) {
        this.template = template;
        this.backend = backend;
        this.command = command;
        this.strategy = strategy;
        this.async = async;
    }

    /**
     * The template's name.
     * @return the name
     */
    public String getTemplate() {
        return this.template;
    }

    /**
     * The template's backend.
     * @return {@code redis} or {@code memcached}
     */
    public String getBackend() {
        return this.backend;
    }

    /**
     * The command.
     * @return the command
     */
    public CacheCommand getCommand() {
        return this.command;
    }

    /**
     * The type of the strategy live when the call was made.
     * @return SINGLE, MULTI or POOLED
     */
    public StrategyType getStrategy() {
        return this.strategy;
    }

    /**
     * Whether the caller used an {@code ...Async} form.
     * @return {@code true} for an async call
     */
    public boolean isAsync() {
        return this.async;
    }

    /**
     * How the call ended.
     * @return the outcome, or {@code null} while the call runs
     */
    public @Nullable Outcome getOutcome() {
        return this.outcome;
    }

    /**
     * Sets how the call ended.
     * @param outcome the outcome
     */
    public void setOutcome(Outcome outcome) {
        this.outcome = outcome;
    }

    /** How a cache call ended, as a low-cardinality tag. */
    public enum Outcome {

        /** The command completed (a read found its value, a write was done or refused by the cache, as {@code add} may be). */
        SUCCESS,
        /** A read found nothing: {@code get} or {@code gets} no value, {@code getAll} none of its keys. */
        MISS,
        /** The call failed and the caller got the failure. */
        ERROR,
        /** The call failed and was answered as a miss or a skipped write ({@code on-failure: degrade}). */
        DEGRADED,
        /** Not attempted: the circuit breaker was open or the bulkhead full. */
        REJECTED;

        private final String tag = name().toLowerCase(Locale.ROOT);

        /**
         * The tag value, such as {@code miss}.
         * @return the tag
         */
        public String tag() {
            return this.tag;
        }
    }
}
