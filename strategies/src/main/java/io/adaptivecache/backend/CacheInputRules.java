package io.adaptivecache.backend;

import java.time.Duration;
import java.util.Objects;

import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.call.Command;
import io.adaptivecache.internal.Arguments;

/**
 * The keys, values and TTLs a backend accepts, checked before anything reaches a socket. Each
 * check is a single pass over the key's characters with no allocation on success; a failure
 * message says what was wrong and what is allowed.
 */
public final class CacheInputRules {

    private static final int QUOTED_KEY_LIMIT = 60;

    private final String backend;
    private final int maxKeyBytes;
    private final int maxValueBytes;
    private final boolean printableKeysOnly;
    private final Duration maxTtl;

    private CacheInputRules(Builder builder) {
        this.backend = builder.backend;
        this.maxKeyBytes = builder.maxKeyBytes;
        this.maxValueBytes = builder.maxValueBytes;
        this.printableKeysOnly = builder.printableKeysOnly;
        this.maxTtl = builder.maxTtl;
    }

    /**
     * Starts rules for a backend.
     * @param backend the backend's name, used in messages
     * @return a builder
     */
    public static Builder builder(String backend) {
        return new Builder(backend);
    }

    /**
     * The longest key, in UTF-8 bytes.
     * @return the limit
     */
    public int maxKeyBytes() {
        return maxKeyBytes;
    }

    /**
     * The largest value, in bytes.
     * @return the limit
     */
    public int maxValueBytes() {
        return maxValueBytes;
    }

    /**
     * The longest TTL.
     * @return the limit
     */
    public Duration maxTtl() {
        return maxTtl;
    }

    /**
     * Checks what a command carries, by what it is: its key, the value and TTL of a command that
     * stores, the TTL of a touch, the delta of a counter, each key of a multi-get.
     * @param command the command
     * @throws InvalidCacheInputException if anything in it is refused
     */
    public void check(Command<?> command) {
        if (command instanceof Command.Keyed<?> keyed) {
            checkKey(keyed.key());
        }
        if (command instanceof Command.Storing<?> storing) {
            checkValue(storing.value());
            checkTtl(storing.ttl());
        }
        else if (command instanceof Command.Touch touch) {
            checkTtl(touch.ttl());
        }
        else if (command instanceof Command.Counting counting) {
            checkDelta(counting.delta());
        }
        else if (command instanceof Command.GetAll all) {
            for (String key : all.keys()) {
                checkKey(key);
            }
        }
    }

    /**
     * Checks a key.
     * @param key the key
     * @throws InvalidCacheInputException if it is null, empty, too long, holds an unpaired
     *     surrogate (no UTF-8 form), or (for text protocols) holds a space or a control character
     */
    public void checkKey(String key) {
        if (key == null) {
            throw new InvalidCacheInputException("A cache key must not be null");
        }
        int length = key.length();
        if (length == 0) {
            throw new InvalidCacheInputException("A cache key must not be empty");
        }
        // Most keys are printable ASCII: one byte a character, nothing to refuse but their length. Only a key with
        // anything else takes the loop below, from its first such character.
        int ascii = 0;
        while (ascii < length) {
            char c = key.charAt(ascii);
            if (c <= 0x20 || c >= 0x7F) {
                break;
            }
            ascii++;
        }
        int bytes = ascii;
        for (int i = ascii; i < length; i++) {
            char c = key.charAt(i);
            if (c < 0x80) {
                if (printableKeysOnly && (c <= 0x20 || c == 0x7F)) {
                    throw new InvalidCacheInputException("Cache key " + quote(key) + " holds " + describe(c) + " at index "
                            + i + "; " + backend + " keys must not contain spaces or control characters");
                }
                bytes++;
            }
            else if (c < 0x800) {
                bytes += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(key.charAt(i + 1))) {
                bytes += 4;
                i++;
            }
            else if (Character.isSurrogate(c)) {
                // No UTF-8 form: the drivers would send '?' instead, naming another key, whose invalidations a near cache
                // would never match to this one.
                throw new InvalidCacheInputException("Cache key " + quote(key) + " holds an unpaired surrogate (U+"
                        + String.format("%04X", (int) c) + ") at index " + i + ", which has no UTF-8 form; a key must be"
                        + " valid Unicode text");
            }
            else {
                bytes += 3;
            }
        }
        if (bytes > maxKeyBytes) {
            throw new InvalidCacheInputException("Cache key " + quote(key) + " is " + bytes + " bytes in UTF-8; " + backend
                    + " allows at most " + maxKeyBytes);
        }
    }

    /**
     * Checks a value.
     * @param value the encoded value
     * @throws InvalidCacheInputException if it is null or larger than the limit
     */
    public void checkValue(byte[] value) {
        if (value == null) {
            throw new InvalidCacheInputException("A cache value must not be null; use delete to remove a key");
        }
        if (value.length > maxValueBytes) {
            throw new InvalidCacheInputException("A cache value of " + value.length + " bytes is over " + backend
                    + "'s limit of " + maxValueBytes + " bytes");
        }
    }

    /**
     * Checks a time to live.
     * @param ttl the TTL
     * @throws InvalidCacheInputException if it is null, negative or over the limit
     */
    public void checkTtl(Duration ttl) {
        if (ttl == null) {
            throw new InvalidCacheInputException("A TTL must not be null; use Duration.ZERO for no expiry");
        }
        if (ttl.isNegative()) {
            throw new InvalidCacheInputException("A TTL must not be negative, was " + ttl + "; use Duration.ZERO for no expiry");
        }
        if (ttl.compareTo(maxTtl) > 0) {
            throw new InvalidCacheInputException("A TTL of " + ttl + " is over " + backend + "'s limit of " + maxTtl);
        }
    }

    /**
     * Checks a counter delta.
     * @param delta the delta
     * @throws InvalidCacheInputException if it is negative
     */
    public void checkDelta(long delta) {
        if (delta < 0) {
            throw new InvalidCacheInputException("A counter delta must be zero or more, was " + delta
                    + "; use decr to subtract");
        }
    }

    private static String describe(char c) {
        return c == ' ' ? "a space" : String.format("a control character (U+%04X)", (int) c);
    }

    /**
     * A key as a failure message shows it: in quotes, control characters and unpaired surrogates
     * escaped, cut after
     * {@value #QUOTED_KEY_LIMIT} characters.
     * @param key the key, not null
     * @return the quoted key
     */
    public static String quote(String key) {
        StringBuilder quoted = new StringBuilder("\"");
        int shown = Math.min(key.length(), QUOTED_KEY_LIMIT);
        for (int i = 0; i < shown; i++) {
            char c = key.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))
                    : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(key.charAt(i - 1));
            if (c < 0x20 || c == 0x7F || (Character.isSurrogate(c) && !paired)) {
                quoted.append(String.format("\\u%04x", (int) c));
            }
            else {
                quoted.append(c);
            }
        }
        return quoted.append(key.length() > shown ? "...\"" : "\"").toString();
    }

    /** Builds {@link CacheInputRules}. */
    public static final class Builder {

        private final String backend;
        private int maxKeyBytes = 1024;
        private int maxValueBytes = 1024 * 1024;
        private boolean printableKeysOnly;
        private Duration maxTtl = Duration.ofDays(365L * 100);

        private Builder(String backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /**
         * The longest key in UTF-8 bytes.
         * @param maxKeyBytes at least 1
         * @return this builder
         */
        public Builder maxKeyBytes(int maxKeyBytes) {
            this.maxKeyBytes = Arguments.atLeast(maxKeyBytes, 1, "max key bytes");
            return this;
        }

        /**
         * The largest value in bytes.
         * @param maxValueBytes at least 1
         * @return this builder
         */
        public Builder maxValueBytes(int maxValueBytes) {
            this.maxValueBytes = Arguments.atLeast(maxValueBytes, 1, "max value bytes");
            return this;
        }

        /**
         * Whether keys must be free of spaces and ASCII control characters, as text protocols need.
         * @param printableKeysOnly {@code true} for memcached
         * @return this builder
         */
        public Builder printableKeysOnly(boolean printableKeysOnly) {
            this.printableKeysOnly = printableKeysOnly;
            return this;
        }

        /**
         * The longest TTL.
         * @param maxTtl positive
         * @return this builder
         */
        public Builder maxTtl(Duration maxTtl) {
            if (maxTtl == null || maxTtl.isNegative() || maxTtl.isZero()) {
                throw new IllegalArgumentException("max TTL must be positive, was " + maxTtl);
            }
            this.maxTtl = maxTtl;
            return this;
        }

        /**
         * Builds the rules.
         * @return the rules
         */
        public CacheInputRules build() {
            return new CacheInputRules(this);
        }
    }
}
