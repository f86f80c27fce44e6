package io.adaptivecache.call;

import org.jspecify.annotations.Nullable;

/**
 * Told about every call when it completes: called on the hot path (often on the client's I/O
 * thread), so implementations must be quick, lock-free and must not allocate or log.
 */
@FunctionalInterface
public interface CallObserver {

    /** Observes nothing. */
    CallObserver NONE = (command, outcome, latencyNanos) -> {
    };

    /**
     * A call completed.
     * @param command the command
     * @param outcome how it ended
     * @param latencyNanos caller-observed time from the call to its completion, including any wait for a connection
     */
    void onCall(CacheCommand command, CallOutcome outcome, long latencyNanos);

    /**
     * A call succeeded with this reply (told before the caller sees it, on the thread that
     * completes it): for figures drawn from replies, such as the size of the values read.
     * @param command the command
     * @param reply its reply, {@code null} included
     * @param <T> the command's result
     */
    default <T extends @Nullable Object> void onReply(Command<T> command, T reply) {
    }

    /**
     * Tells two observers, in order.
     * @param first told first
     * @param second told second
     * @return the pair
     */
    static CallObserver both(CallObserver first, CallObserver second) {
        return new CallObserver() {
            @Override
            public void onCall(CacheCommand command, CallOutcome outcome, long latencyNanos) {
                first.onCall(command, outcome, latencyNanos);
                second.onCall(command, outcome, latencyNanos);
            }

            @Override
            public <T extends @Nullable Object> void onReply(Command<T> command, T reply) {
                first.onReply(command, reply);
                second.onReply(command, reply);
            }
        };
    }
}
