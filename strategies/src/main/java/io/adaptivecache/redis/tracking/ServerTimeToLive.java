package io.adaptivecache.redis.tracking;

import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the server a key's remaining time to live ({@code PTTL}) for the near caches, on the
 * source's own tracking connection, which reaches the server the near caches' templates read
 * from. Apart from the session's code because it only borrows the live connection: it changes no
 * state, and its one failure of note (a server that refuses {@code PTTL}) is a setup mistake, not
 * a lost session.
 */
final class ServerTimeToLive {

    private static final Logger logger = LoggerFactory.getLogger(ServerTimeToLive.class);

    /** The answer to a time-to-live question while no session is live; without a stack trace, as it is not a fault. */
    private static final IllegalStateException NOT_TRACKING = new IllegalStateException("not tracking") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    private final TrackingConnection tracking;
    private final String description;
    /** Whether a refused PTTL was logged; once is enough. */
    private volatile boolean refusalReported;

    ServerTimeToLive(TrackingConnection tracking, String description) {
        this.tracking = tracking;
        this.description = description;
    }

    /**
     * Sends {@code PTTL}. Nothing waits for it here: the near cache keeps a copy when the answer
     * has come. No live connection: a failed future, and the near cache keeps nothing (it does not
     * serve then either).
     * @param key the key
     * @return the server's answer in milliseconds (-1 for no expiry, -2 for no such key)
     */
    CompletableFuture<Long> ask(String key) {
        StatefulRedisConnection<String, String> connection = tracking.current();
        if (!tracking.isUp() || connection == null) {
            return CompletableFuture.failedFuture(NOT_TRACKING);
        }
        try {
            // Lettuce's command timeout (the connect timeout) bounds the wait for the answer.
            CompletableFuture<Long> answer = connection.async().pttl(key).toCompletableFuture();
            if (!refusalReported) {
                answer.whenComplete((millis, failure) -> reportRefusal(failure));
            }
            return answer;
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /** A server that refuses PTTL (an ACL without it) leaves every copy unkept: said once, as it is a setup mistake. */
    private void reportRefusal(@Nullable Throwable failure) {
        if (failure instanceof RedisCommandExecutionException && !refusalReported) {
            refusalReported = true;
            logger.warn("{} refuses PTTL ({}); near caches cannot cap their copies at their keys' expiry, so they keep none and"
                    + " read every key from the server", description, failure.getMessage());
        }
    }
}
