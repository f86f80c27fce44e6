package io.adaptivecache;

import java.nio.charset.StandardCharsets;

/**
 * Turns typed values into the bytes a {@link CacheTemplate} stores, and back. Implementations
 * must be thread-safe and must not return {@code null} from {@link #encode}.
 *
 * @param <T> the value type
 */
public interface ValueCodec<T> {

    /**
     * Converts a value to bytes.
     * @param value a value, never {@code null}
     * @return its bytes
     */
    byte[] encode(T value);

    /**
     * Converts bytes back to a value.
     * @param bytes the stored bytes, never {@code null}
     * @return the value
     */
    T decode(byte[] bytes);

    /**
     * Strings as UTF-8.
     * @return the codec
     */
    static ValueCodec<String> utf8() {
        return BuiltInCodecs.UTF8;
    }

    /**
     * Raw bytes, unchanged (no copy is made in either direction).
     * @return the codec
     */
    static ValueCodec<byte[]> bytes() {
        return BuiltInCodecs.BYTES;
    }
}

final class BuiltInCodecs {

    static final ValueCodec<String> UTF8 = new ValueCodec<>() {
        @Override
        public byte[] encode(String value) {
            return value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "ValueCodec.utf8()";
        }
    };

    static final ValueCodec<byte[]> BYTES = new ValueCodec<>() {
        @Override
        public byte[] encode(byte[] value) {
            return value;
        }

        @Override
        public byte[] decode(byte[] bytes) {
            return bytes;
        }

        @Override
        public String toString() {
            return "ValueCodec.bytes()";
        }
    };

    private BuiltInCodecs() {
    }
}
