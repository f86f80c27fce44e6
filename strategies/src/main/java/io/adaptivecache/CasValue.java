package io.adaptivecache;

import java.util.Objects;

/**
 * A value together with the token that identifies its version, as returned by {@code gets}.
 *
 * @param value the value
 * @param token the token to pass to {@code cas}
 * @param <V> the value type
 */
public record CasValue<V>(V value, CasToken token) {

    /**
     * Checks both parts are present.
     * @param value the value
     * @param token the token
     */
    public CasValue {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(token, "token");
    }

    /**
     * The same token with a value of another type.
     * @param mapped the converted value
     * @param <T> the new value type
     * @return a new instance
     */
    public <T> CasValue<T> withValue(T mapped) {
        return new CasValue<>(mapped, token);
    }
}
