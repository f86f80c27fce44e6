package io.adaptivecache.redis;

import java.util.Locale;

import io.adaptivecache.CacheAuthenticationException;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import io.lettuce.core.event.EventBus;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * Tells a server's refusal of the template's credentials from other failures, and remembers
 * the last refusal of a reconnect: Lettuce then rejects commands with only "not connected",
 * and the server's reason (WRONGPASS, NOAUTH) would otherwise be in no exception. Messages name
 * the user and where the credentials were configured, never the password.
 */
final class RedisAuthentication {

    private final String address;
    private final @Nullable String user;
    private final @Nullable String credentialsSource;
    private volatile @Nullable String reconnectRefusal;
    private volatile @Nullable Throwable reconnectFailure;
    private volatile @Nullable Disposable subscription;

    RedisAuthentication(String address, RedisURI uri, @Nullable String credentialsSource) {
        this.address = address;
        this.user = user(uri);
        this.credentialsSource = credentialsSource;
    }

    /**
     * The server's words if a failure (or one of its causes) is a refusal of credentials.
     * @return for example {@code WRONGPASS invalid username-password pair or user is disabled.}; {@code null} otherwise
     */
    static @Nullable String refusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && isRefusal(message)) {
                return message.trim();
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    private static boolean isRefusal(String message) {
        String upper = message.trim().toUpperCase(Locale.ROOT);
        // Redis 6+: WRONGPASS (bad user or password, disabled user), NOAUTH (a password is required and none was given);
        // before 6 and for AUTH without a configured password: "ERR invalid password", "ERR AUTH <password> called without ...".
        return upper.startsWith("WRONGPASS") || upper.startsWith("NOAUTH") || upper.startsWith("ERR INVALID PASSWORD")
                || (upper.startsWith("ERR AUTH") && upper.contains("WITHOUT ANY PASSWORD CONFIGURED"));
    }

    /**
     * The exception for a refusal.
     * @param reason the server's words
     * @param when what was being done, such as "when connecting" or "when reconnecting"; empty if a command
     * @param cause the client library's exception
     */
    CacheAuthenticationException refused(String reason, String when, @Nullable Throwable cause) {
        String user = this.user == null ? "the default user" : "user '" + this.user + "'";
        String check = this.credentialsSource != null ? "; check " + this.credentialsSource
                : "; check the user name and password the template was given";
        return new CacheAuthenticationException("Redis at " + this.address + " refused the credentials of " + user
                + (when.isEmpty() ? "" : " " + when) + ": " + reason + check, this.user, reason, this.credentialsSource, cause);
    }

    /**
     * The refusal of the last failed reconnect, while no connection has been activated since.
     * @return the exception to report instead of "not connected", or {@code null}
     */
    @Nullable CacheAuthenticationException lastReconnectRefusal() {
        String reason = this.reconnectRefusal;
        return reason == null ? null : refused(reason, "when reconnecting", this.reconnectFailure);
    }

    /**
     * Listens to the client's reconnect outcomes. Only for client resources the template owns:
     * shared ones carry other clients' events too.
     */
    void watch(EventBus events) {
        this.subscription = events.get().subscribe(event -> {
            if (event instanceof ReconnectFailedEvent failed) {
                // The latest attempt's reason: a server that went down after refusing is reported as down, not as refusing.
                String reason = refusal(failed.getCause());
                this.reconnectFailure = reason != null ? failed.getCause() : null;
                this.reconnectRefusal = reason;
            }
            else if (event instanceof ConnectionActivatedEvent) {
                // A connection passed its handshake: the credentials are accepted (again).
                this.reconnectRefusal = null;
                this.reconnectFailure = null;
            }
        });
    }

    void close() {
        Disposable subscription = this.subscription;
        if (subscription != null) {
            subscription.dispose();
        }
    }

    private static @Nullable String user(RedisURI uri) {
        RedisCredentialsProvider provider = uri.getCredentialsProvider();
        if (provider == null) {
            return null;
        }
        RedisCredentials credentials;
        try {
            // A URI's or builder's credentials resolve at once (Lettuce wraps them in a provider that is not "immediate").
            credentials = provider instanceof RedisCredentialsProvider.ImmediateRedisCredentialsProvider immediate
                    ? immediate.resolveCredentialsNow() : provider.resolveCredentials().block(java.time.Duration.ofSeconds(1));
        }
        catch (RuntimeException ex) {
            return null;
        }
        return credentials != null && credentials.hasUsername() ? credentials.getUsername() : null;
    }
}
