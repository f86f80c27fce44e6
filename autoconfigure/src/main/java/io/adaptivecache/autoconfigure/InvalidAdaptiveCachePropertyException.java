package io.adaptivecache.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * An {@code adaptive-cache.*} property holds a value the starter cannot use. Spring Boot's own
 * failure analysis reports it at startup with the property, its value, where it was set and
 * what is allowed.
 */
public class InvalidAdaptiveCachePropertyException extends InvalidConfigurationPropertyValueException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param property the full property name, such as {@code adaptive-cache.redis.url}
     * @param value the value it holds, or {@code null} if it holds none
     * @param reason what it may hold instead
     */
    public InvalidAdaptiveCachePropertyException(String property, @Nullable Object value, String reason) {
        super(property, value, reason);
    }
}
