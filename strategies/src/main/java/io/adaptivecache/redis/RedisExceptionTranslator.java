package io.adaptivecache.redis;

import java.io.IOException;

import io.adaptivecache.CacheAuthenticationException;
import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.backend.NodeExceptionTranslator;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * Reads Lettuce's exceptions as timeout, connection, authentication or server failures. On a
 * cluster, a call's failure names the node and slot it went to
 * ({@link #translate(Throwable, String)}); the seed list is named only where no one node is
 * concerned (a multi-slot {@code getAll}, opening a connection).
 */
final class RedisExceptionTranslator implements NodeExceptionTranslator {

    private final String address;
    private final @Nullable RedisAuthentication authentication;
    private final int requestQueueSize;

    RedisExceptionTranslator(String address) {
        this(address, null, -1);
    }

    /**
     * @param authentication reads refusals of the credentials, or {@code null}
     * @param requestQueueSize the bound of each connection's request queue, named when it is full; -1 if unknown
     */
    RedisExceptionTranslator(String address, @Nullable RedisAuthentication authentication, int requestQueueSize) {
        this.address = address;
        this.authentication = authentication;
        this.requestQueueSize = requestQueueSize;
    }

    @Override
    public CacheException translate(Throwable failure) {
        return translate(failure, "Redis at " + address, "Redis call to " + address, address);
    }

    @Override
    public CacheException translate(Throwable failure, String node) {
        return translate(failure, "Redis Cluster " + node, "Redis Cluster call to " + node, node);
    }

    private CacheException translate(Throwable failure, String subject, String callTo, String address) {
        String detail = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        String refusal = this.authentication != null ? RedisAuthentication.refusal(failure) : null;
        if (refusal != null) {
            // NOAUTH to a command, WRONGPASS to a handshake: the credentials, not the network.
            return this.authentication.refused(refusal, "", failure);
        }
        if (failure instanceof RedisCommandTimeoutException) {
            return new CacheTimeoutException(subject + " did not answer in time: " + detail, failure);
        }
        if (failure instanceof RedisCommandExecutionException) {
            return new CacheServerException(subject + " answered with an error: " + detail, failure);
        }
        if (failure instanceof RedisException && (detail.startsWith("Request queue size exceeded")
                || detail.startsWith("Internal stack size exceeded"))) {
            return new CacheRejectedException("The Redis client's command queue to " + address + " is full"
                    + (this.requestQueueSize > 0 ? " (" + this.requestQueueSize + " commands per connection, request-queue-size)" : "")
                    + "; the command was not sent (" + detail + ")", null);
        }
        if (failure instanceof RedisConnectionException || failure instanceof IOException
                || (failure instanceof RedisException && isAboutConnection(detail))) {
            // "Currently not connected" says nothing of why: a reconnect the server refused is the reason to give.
            CacheAuthenticationException refused = this.authentication != null ? this.authentication.lastReconnectRefusal() : null;
            if (refused != null) {
                return refused;
            }
            return new CacheConnectionException(subject + " is unreachable: " + detail, failure);
        }
        return new CacheException(callTo + " failed: " + detail, failure);
    }

    private static boolean isAboutConnection(String detail) {
        String lower = detail.toLowerCase(java.util.Locale.ROOT);
        return lower.contains("connection") || lower.contains("not connected") || lower.contains("disconnected");
    }
}
