package io.adaptivecache;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An opaque token that identifies the version of a value read by {@code gets}; pass it back
 * to {@code cas} for the same key, unchanged. Callers need not look inside: the backend decides
 * what it holds (memcached's 64-bit CAS unique, or a digest of the value for Redis). The token
 * remembers the backend and key it was read for, so that using it elsewhere is refused before
 * anything is sent rather than silently compared against an unrelated value.
 */
public final class CasToken {

    private final String backend;
    private final String key;
    private final long version;
    // null for a version token: the one field tells the two kinds apart.
    private final @Nullable String digest;

    private CasToken(String backend, String key, long version, @Nullable String digest) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.key = Objects.requireNonNull(key, "key");
        this.version = version;
        this.digest = digest;
    }

    /**
     * A token holding a server-issued version number (memcached's CAS unique).
     * @param backend the backend's kind, such as {@code memcached}
     * @param key the key it was read for
     * @param version the version
     * @return the token
     */
    public static CasToken ofVersion(String backend, String key, long version) {
        return new CasToken(backend, key, version, null);
    }

    /**
     * A token holding a digest of the value that was read.
     * @param backend the backend's kind, such as {@code redis}
     * @param key the key it was read for
     * @param digest the digest, as text
     * @return the token
     */
    public static CasToken ofDigest(String backend, String key, String digest) {
        return new CasToken(backend, key, 0, Objects.requireNonNull(digest, "digest"));
    }

    /**
     * The kind of backend that issued this token.
     * @return such as {@code redis}
     */
    public String backend() {
        return backend;
    }

    /**
     * The key this token was read for.
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The version number, for backends that issue one.
     * @return the version
     * @throws IllegalStateException if this token holds a digest
     */
    public long version() {
        if (digest != null) {
            throw new IllegalStateException("This CAS token holds a digest, not a version: it was read from " + backend);
        }
        return version;
    }

    /**
     * The digest, for backends that compare values.
     * @return the digest
     * @throws IllegalStateException if this token holds a version
     */
    public String digest() {
        if (digest == null) {
            throw new IllegalStateException("This CAS token holds a version, not a digest: it was read from " + backend);
        }
        return digest;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof CasToken token && token.version == version && Objects.equals(token.digest, digest)
                && token.key.equals(key) && token.backend.equals(backend);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + (digest != null ? digest.hashCode() : Long.hashCode(version));
    }

    @Override
    public String toString() {
        return "CasToken[" + backend + (digest != null ? ", digest=" + digest : ", version=" + version) + "]";
    }
}
