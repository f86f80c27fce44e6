package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * The server refused the template's credentials: a wrong password or user name, a disabled or
 * deleted user, a password the server asks for and the template does not give
 * ({@code WRONGPASS}, {@code NOAUTH} in Redis's words), at startup or when a lost connection
 * is opened again. The command was not executed. It is a {@link CacheConnectionException}: the
 * server cannot be used, and retrying will not help until the credentials or the server's
 * users change.
 *
 * <p>The message quotes the server's reason and names the user, never the password.
 */
public class CacheAuthenticationException extends CacheConnectionException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String user;
    private final String reason;
    private final @Nullable String credentialsSource;

    /**
     * Creates an exception.
     * @param message what refused which credentials, with the server's reason; never a password
     * @param user the user the credentials were for, or {@code null} for the server's default user
     * @param reason the server's words, such as {@code WRONGPASS invalid username-password pair or user is disabled.}
     * @param credentialsSource where the credentials were configured (such as the properties that
     *        set them), or {@code null} if unknown
     * @param cause the client library's exception, or {@code null}
     */
    public CacheAuthenticationException(String message, @Nullable String user, String reason, @Nullable String credentialsSource,
            @Nullable Throwable cause) {
        super(message, cause);
        this.user = user;
        this.reason = reason;
        this.credentialsSource = credentialsSource;
    }

    /**
     * The user the refused credentials were for.
     * @return the user name, or {@code null} for the server's default user (a password without a user name)
     */
    public @Nullable String user() {
        return this.user;
    }

    /**
     * The user as a message names it.
     * @return {@code user 'name'}, or {@code the default user}
     */
    public String userDescription() {
        return this.user == null ? "the default user" : "user '" + this.user + "'";
    }

    /**
     * The server's reason for the refusal.
     * @return its words, such as {@code WRONGPASS invalid username-password pair or user is disabled.}
     */
    public String reason() {
        return this.reason;
    }

    /**
     * Where the credentials were configured, to check them there.
     * @return for example {@code adaptive-cache.redis.username and adaptive-cache.redis.password}, or {@code null} if unknown
     */
    public @Nullable String credentialsSource() {
        return this.credentialsSource;
    }
}
